const COMMAND_FAILED = Symbol.for('adkit.releaseTest.commandFailed');

/**
 * A command the release test ran failed (non-zero exit, a signal, or its time ran out). The
 * message names the command, where it ran, and ends with the tail of what it printed, so a CI log
 * shows why without a rerun. Check with `isCommandError()`, not `instanceof`.
 */
export class CommandError extends Error {
  readonly code = 'COMMAND_FAILED';
  /** The exit code, or `null` when a signal (or the timeout) ended it. */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;

  constructor(message: string, details: { exitCode: number | null; stdout: string; stderr: string }) {
    super(message);
    this.name = 'CommandError';
    this.exitCode = details.exitCode;
    this.stdout = details.stdout;
    this.stderr = details.stderr;
    Object.defineProperty(this, COMMAND_FAILED, { value: true });
  }
}

/** Whether the value is a `CommandError` (from any copy of this module). */
export function isCommandError(value: unknown): value is CommandError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[COMMAND_FAILED] === true;
}
