const ADKIT_ERROR = Symbol.for('adkit.error');

/** Stable codes of the errors adkit throws at programmers. */
export type AdkitErrorCode =
  | 'INVALID_CONFIG'
  | 'DUPLICATE_TOOL'
  | 'SESSION_ERROR'
  | 'SESSION_CONFLICT'
  | 'ARTIFACT_ERROR'
  | 'MEMORY_ERROR'
  | 'MODEL_ERROR'
  | 'SCRIPT_EXHAUSTED'
  | 'TOOL_ERROR'
  | 'TOOL_TIMEOUT'
  | 'MISSING_CONTEXT_VARIABLE'
  | (string & {});

/**
 * Base of every error adkit throws. Check with `isAdkitError()`, which works across copies of
 * the package (a `Symbol.for` marker, not `instanceof`).
 */
export class AdkitError extends Error {
  readonly code: AdkitErrorCode;

  constructor(code: AdkitErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AdkitError';
    this.code = code;
    Object.defineProperty(this, ADKIT_ERROR, { value: true });
  }
}

/** A wrong argument or option at construction; the message names the fix. */
export class ConfigError extends AdkitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INVALID_CONFIG', message, options);
    this.name = 'ConfigError';
  }
}

/** A session could not be created, found or appended to. */
export class SessionError extends AdkitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SESSION_ERROR', message, options);
    this.name = 'SessionError';
  }
}

/**
 * `appendEvent` was given a stale session: another runner or process appended to it since it was
 * loaded, so storing this event would interleave two histories. Nothing was stored. Load the
 * session again with `getSession` and retry the turn. Check with `error.code === 'SESSION_CONFLICT'`.
 */
export class SessionConflictError extends AdkitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SESSION_CONFLICT', message, options);
    this.name = 'SessionConflictError';
  }
}

/** An artifact operation failed, or no artifact service is configured. */
export class ArtifactError extends AdkitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ARTIFACT_ERROR', message, options);
    this.name = 'ArtifactError';
  }
}

/** A memory operation failed, or no memory service is configured. */
export class MemoryError extends AdkitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('MEMORY_ERROR', message, options);
    this.name = 'MemoryError';
  }
}

/** Whether the value is an adkit error (from any copy of the package). */
export function isAdkitError(value: unknown): value is AdkitError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[ADKIT_ERROR] === true;
}

/** A readable message from anything thrown; never throws itself. */
export function errorMessage(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message || thrown.name;
  if (typeof thrown === 'string') return thrown;
  try {
    return JSON.stringify(thrown) ?? String(thrown);
  } catch {
    // Some values print neither way (no prototype and a BigInt inside, a throwing toString).
    try {
      return String(thrown);
    } catch {
      return Object.prototype.toString.call(thrown);
    }
  }
}
