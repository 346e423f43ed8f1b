import { SkillError, type SkillErrorCode } from './errors.js';
import { parseAllowedTools } from './parseAllowedTools.js';
import { FRONTMATTER_FIELDS, SKILL_LIMITS, type SkillFrontmatter } from './skillFrontmatter.js';

/** The metadata key through which a skill unlocks extra tools (ADK's convention); a list is fine. */
export const ADDITIONAL_TOOLS_KEY = 'adk_additional_tools';

/** Options of `validateFrontmatter`. */
export interface ValidateFrontmatterOptions {
  /** Refuse every rule break (default: lenient, rule breaks become warnings where the skill stays usable). */
  strict?: boolean;
  /** The skill folder's name, for the name = folder rule (SK-1); omitted for skills not in a folder. */
  directoryName?: string;
}

/** A validated frontmatter and what lenient mode let through. */
export interface ValidatedFrontmatter {
  readonly frontmatter: SkillFrontmatter;
  /** One message per rule break, e.g. `unknown field "argument-hint" (…)`. Empty in strict mode. */
  readonly warnings: readonly string[];
}

const KNOWN = new Set<string>(FRONTMATTER_FIELDS);

/**
 * Checks a parsed frontmatter against SK-2 and SK-3 (in SK-3's order). Strict mode throws a
 * `SkillError` at the first rule break. Lenient mode (the default) keeps the skill and returns a
 * warning per break: name ≠ folder, name or description or compatibility over its limit, a name
 * with other characters, `allowed-tools` as a list, non-string metadata (turned into JSON text),
 * unknown fields (dropped). Both modes refuse what leaves the skill unusable: no mapping, a
 * missing or empty name or description.
 */
export function validateFrontmatter(raw: unknown, options: ValidateFrontmatterOptions = {}): ValidatedFrontmatter {
  const strict = options.strict === true;
  const warnings: string[] = [];
  const problem: Problem = (message, lenient, code = 'SKILL_INVALID_FRONTMATTER') => {
    if (strict) throw new SkillError(code, message);
    warnings.push(lenient ? `${message}; ${lenient}` : message);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new SkillError('SKILL_INVALID_FRONTMATTER', `frontmatter must be a YAML mapping of fields, got ${kind(raw)}`);
  const fields = raw as Record<string, unknown>;
  const field = (key: string): unknown => (Object.hasOwn(fields, key) ? fields[key] : undefined);

  for (const key of Object.keys(fields))
    if (!KNOWN.has(key)) problem(`unknown field "${key}" (the Agent Skills fields are ${FRONTMATTER_FIELDS.join(', ')})`, 'it is ignored');

  const name = field('name');
  if (typeof name !== 'string')
    throw new SkillError('SKILL_INVALID_NAME', name === undefined || name === null ? 'name is required' : `name must be a string, got ${kind(name)}`);
  const nameLength = length(name);
  if (nameLength < 1 || nameLength > SKILL_LIMITS.name) {
    if (nameLength < 1) throw new SkillError('SKILL_INVALID_NAME', 'name must be between 1 and 64 characters long');
    problem('name must be between 1 and 64 characters long', undefined, 'SKILL_INVALID_NAME');
  } else if (name.startsWith('-') || name.endsWith('-')) problem('name must not start or end with a hyphen', undefined, 'SKILL_INVALID_NAME');
  else if (name.includes('--')) problem('name must not contain consecutive hyphens', undefined, 'SKILL_INVALID_NAME');
  else if (!/^[a-z0-9-]+$/.test(name))
    problem('name may only contain lowercase alphanumeric characters (a-z, 0-9) and hyphens', undefined, 'SKILL_INVALID_NAME');

  const description = field('description');
  if (typeof description !== 'string' || description.length === 0)
    throw new SkillError(
      'SKILL_INVALID_FRONTMATTER',
      typeof description === 'string' || description === undefined || description === null
        ? 'description must be between 1 and 1024 characters long'
        : `description must be a string, got ${kind(description)} (quote the value if it contains ": ")`,
    );
  const descriptionLength = length(description);
  if (descriptionLength > SKILL_LIMITS.description)
    problem(`description must be between 1 and 1024 characters long (it has ${descriptionLength})`, 'it is used in full');

  const frontmatter: { -readonly [K in keyof SkillFrontmatter]: SkillFrontmatter[K] } = { name, description };

  const license = text('license', field('license'), problem);
  if (license !== undefined) frontmatter.license = license;

  const compatibility = text('compatibility', field('compatibility'), problem);
  if (compatibility !== undefined) {
    const size = length(compatibility);
    if (size > SKILL_LIMITS.compatibility) problem(`compatibility must not exceed 500 characters (it has ${size})`, 'it is used in full');
    frontmatter.compatibility = compatibility;
  }

  const metadata = metadataOf(field('metadata'), problem);
  if (metadata !== undefined) frontmatter.metadata = metadata;

  const allowed = allowedToolsOf(field('allowed-tools'), strict, problem);
  if (allowed !== undefined) frontmatter['allowed-tools'] = allowed;

  if (options.directoryName !== undefined && options.directoryName !== name)
    problem(`name in SKILL.md ("${name}") does not match directory name ("${options.directoryName}")`, undefined, 'SKILL_INVALID_NAME');

  return { frontmatter: Object.freeze(frontmatter), warnings };
}

/** Reports a rule break: strict mode throws it, lenient mode keeps it (with what it did about it). */
type Problem = (message: string, lenient?: string, code?: SkillErrorCode) => void;

/** An optional string field; lenient mode turns other scalars into text. */
function text(key: string, value: unknown, problem: Problem): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  const scalar = typeof value === 'number' || typeof value === 'boolean';
  problem(`${key} must be a string, got ${kind(value)}`, scalar ? 'it is kept as text' : 'it is ignored');
  return scalar ? String(value) : undefined;
}

function metadataOf(value: unknown, problem: Problem): Readonly<Record<string, string>> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    problem(`metadata must be a map of string keys to string values, got ${kind(value)}`, 'it is ignored');
    return undefined;
  }
  const entries: [string, string][] = [];
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (typeof item === 'string') entries.push([key, item]);
    else if (key === ADDITIONAL_TOOLS_KEY && Array.isArray(item) && item.every((tool) => typeof tool === 'string'))
      entries.push([key, JSON.stringify(item)]);
    else {
      problem(`metadata "${key}" must be a string, got ${kind(item)}`, 'it is kept as JSON text');
      entries.push([key, jsonText(item)]);
    }
  }
  // fromEntries defines own data properties, so a "__proto__" key stays a plain key.
  return Object.freeze(Object.fromEntries(entries));
}

function allowedToolsOf(value: unknown, strict: boolean, problem: Problem): readonly string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    if (strict) return Object.freeze(parseAllowedTools(value));
    try {
      return Object.freeze(parseAllowedTools(value));
    } catch (error) {
      problem((error as Error).message, 'it is split on whitespace and commas instead');
      return Object.freeze(value.split(/[\s,]+/).filter(Boolean));
    }
  }
  if (Array.isArray(value)) {
    problem('allowed-tools must be one space-separated string (e.g. "Bash(git:*) Read"), got a list', 'the list is used');
    const names = value.filter((item): item is string => typeof item === 'string' && item.trim() !== '');
    if (names.length !== value.length) problem('allowed-tools entries must be non-empty strings', 'the others are ignored');
    return Object.freeze(names.map((item) => item.trim()));
  }
  problem(`allowed-tools must be a string or a sequence of strings, got ${kind(value)}`, 'it is ignored');
  return undefined;
}

/** Length in characters (Unicode code points). */
function length(value: string): number {
  // Code points never outnumber UTF-16 units: only a string with surrogate pairs needs counting.
  if (!/[\uD800-\uDFFF]/.test(value)) return value.length;
  let count = 0;
  for (const _ of value) count++;
  return count;
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`.slice(0, 80);
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
