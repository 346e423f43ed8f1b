import { AdkitError } from '../errors.js';

/** What on-error callbacks see when a tool call runs past its time limit. */
export class ToolTimeoutError extends AdkitError {
  constructor(
    readonly toolName: string,
    readonly timeoutMs: number,
  ) {
    super('TOOL_TIMEOUT', `Tool "${toolName}" timed out after ${timeoutMs} ms.`);
    this.name = 'ToolTimeoutError';
  }
}

/** Thrown inside the flow when the run itself was cancelled; never reaches the model. */
export class RunAbortedError extends Error {
  constructor() {
    super('The run was cancelled.');
    this.name = 'RunAbortedError';
  }
}

/** A signal for one tool call: the run's signal, joined with a timeout when there is one. */
export function callSignal(runSignal: AbortSignal, timeoutMs: number | undefined): { signal: AbortSignal; timeout?: AbortSignal } {
  if (timeoutMs === undefined || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) return { signal: runSignal };
  const timeout = AbortSignal.timeout(timeoutMs);
  return { signal: AbortSignal.any([runSignal, timeout]), timeout };
}

/**
 * Settles with the work, or rejects as soon as the signal aborts, so a tool that ignores its
 * signal cannot hold the run: `ToolTimeoutError` when the timeout fired, else `RunAbortedError`.
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal,
  timeout: AbortSignal | undefined,
  toolName: string,
  timeoutMs: number | undefined,
): Promise<T> {
  const reason = () => (timeout?.aborted ? new ToolTimeoutError(toolName, timeoutMs ?? 0) : new RunAbortedError());
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(reason());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
