import { FUNCTION_NAME_PATTERN } from './toolOptions.js';

/** A name from outside made valid, and whether (and why) it changed. */
export interface FunctionName {
  /** A name that matches `FUNCTION_NAME_PATTERN` and is not in `taken`. */
  readonly name: string;
  /** The name as it came from outside (an MCP server's tool, a skill's folder). */
  readonly original: string;
  /** Why it changed, for a warning; `undefined` when the name was kept as is. */
  readonly reason?: string;
}

const MAX_LENGTH = 64;

/**
 * Turns a name from outside into a valid function name instead of failing discovery: characters
 * neither provider accepts become `_`, a leading digit or symbol gets a `_` in front, long names
 * are cut to 64 characters with a short hash of the original kept, so two long names stay apart.
 * With `taken`, a name already used gets a `_2`, `_3`, … suffix. Report `reason` to the logger.
 */
export function toFunctionName(original: string, taken?: ReadonlySet<string>): FunctionName {
  const reasons: string[] = [];
  let name = original.replace(/[^a-zA-Z0-9_.-]/g, '_');
  if (name !== original) reasons.push('characters other than letters, digits, "_", "." and "-" became "_"');
  if (name.length === 0) {
    name = '_';
    reasons.push('it was empty');
  } else if (!/^[a-zA-Z_]/.test(name)) {
    name = `_${name}`;
    reasons.push('it must start with a letter or "_"');
  }
  if (name.length > MAX_LENGTH) {
    name = `${name.slice(0, MAX_LENGTH - 9)}_${shortHash(original)}`;
    reasons.push(`it was longer than ${MAX_LENGTH} characters`);
  }
  if (taken?.has(name)) {
    const base = name;
    for (let n = 2; taken.has(name); n++) {
      const suffix = `_${n}`;
      name = `${base.slice(0, MAX_LENGTH - suffix.length)}${suffix}`;
    }
    reasons.push(`"${base}" was already taken`);
  }
  if (!FUNCTION_NAME_PATTERN.test(name)) throw new Error(`toFunctionName produced an invalid name "${name}"`);
  return reasons.length === 0 ? { name, original } : { name, original, reason: `renamed "${original}" to "${name}": ${reasons.join('; ')}` };
}

/** 8 hex digits of FNV-1a: enough to keep two cut names apart, and needs no crypto module. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
