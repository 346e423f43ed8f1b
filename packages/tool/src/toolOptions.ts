import { ConfigError } from '@adkit/flow';

/**
 * Function names both OpenAI and Gemini accept: a letter or underscore, then up to 63 letters,
 * digits, `_`, `.` or `-`.
 */
export const FUNCTION_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/;

/** What every tool is configured with. */
export interface ToolOptions {
  /** The function name the model calls; must match `FUNCTION_NAME_PATTERN`. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** Calls answer later (a ticket, an approval): the run pauses after calling it (FT-6). */
  isLongRunning?: boolean;
  /** Per-call time limit in ms; the call's `ctx.signal` aborts and the model gets an error. */
  timeoutMs?: number;
  /**
   * Running a call twice has the same effect as running it once (a lookup, a write keyed by the
   * call): after a crash while an approved or resumed call ran, the flow runs it again instead of
   * telling the model the call was interrupted. Default `false`.
   */
  idempotent?: boolean;
}

/**
 * Throws a `ConfigError` naming the fix unless `name` is a valid function name
 * (`FUNCTION_NAME_PATTERN`). `owner` names what is being built, e.g. `functionTool`.
 */
export function assertToolName(owner: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || name.length === 0)
    throw new ConfigError(
      `${owner}: name must be a non-empty string, got ${name === '' ? 'an empty string' : typeof name}; give the tool a name such as "get_weather".`,
    );
  if (!FUNCTION_NAME_PATTERN.test(name))
    throw new ConfigError(
      `${owner} "${name}": name must match ${FUNCTION_NAME_PATTERN} (a letter or underscore, then letters, digits, "_", "." or "-"; at most 64 characters) so every model provider accepts it; rename it, e.g. "${suggestName(name)}".`,
    );
}

/**
 * Checks the options every tool shares (name, description, isLongRunning, timeoutMs, idempotent) and throws a
 * `ConfigError` naming the fix. `owner` names what is being built, e.g. `functionTool`.
 */
export function assertToolOptions(owner: string, options: ToolOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new ConfigError(`${owner}: expected an options object such as {name, description, ...}, got ${options === null ? 'null' : typeof options}.`);
  assertToolName(owner, options.name);
  const label = `${owner} "${options.name}"`;
  if (typeof options.description !== 'string')
    throw new ConfigError(`${label}: description must be a string telling the model what the tool does, got ${typeof options.description}.`);
  if (options.isLongRunning !== undefined && typeof options.isLongRunning !== 'boolean')
    throw new ConfigError(`${label}: isLongRunning must be true or false, got ${typeof options.isLongRunning}.`);
  if (options.idempotent !== undefined && typeof options.idempotent !== 'boolean')
    throw new ConfigError(
      `${label}: idempotent must be true or false, got ${options.idempotent === null ? 'null' : typeof options.idempotent}; leave it out unless running a call twice is harmless.`,
    );
  if (
    options.timeoutMs !== undefined &&
    !(typeof options.timeoutMs === 'number' && Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)
  )
    throw new ConfigError(
      `${label}: timeoutMs must be a positive number of milliseconds (e.g. 30000), got ${String(options.timeoutMs)}; leave it out for no per-tool limit.`,
    );
}

function suggestName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_.-]+/g, '_').replace(/^([^a-zA-Z_])/, '_$1').slice(0, 64);
}
