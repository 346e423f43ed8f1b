import { AdkitError } from '../errors.js';
import { raceAbort } from '../model/raceAbort.js';

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

/** A signal for one tool call, linked to the run's; `release()` unlinks it once the call is done. */
export interface CallSignal {
  signal: AbortSignal;
  /** The call's own timeout, when it has one (to tell a timeout from a cancelled run). */
  timeout?: AbortSignal;
  release(): void;
}

// The calls in flight on each run signal, with the one listener that aborts them all. However many
// run at once, the run's signal carries that one listener, and none once they are done: with a
// listener per call, more than ten parallel calls printed MaxListenersExceededWarning (#23 point
// 15), and tools that listen on their signal (fetch, SDKs) added theirs to the run's too.
const inFlight = new WeakMap<AbortSignal, { calls: Set<AbortController>; onAbort: () => void }>();

/**
 * A signal for one tool call: its own, aborted when the run's signal is, joined with a timeout
 * when there is one.
 */
export function callSignal(runSignal: AbortSignal, timeoutMs: number | undefined): CallSignal {
  const own = new AbortController();
  let release = () => {};
  if (runSignal.aborted) own.abort(runSignal.reason);
  else {
    let link = inFlight.get(runSignal);
    if (!link) {
      const calls = new Set<AbortController>();
      const onAbort = () => {
        inFlight.delete(runSignal);
        for (const call of calls) call.abort(runSignal.reason);
        calls.clear();
      };
      link = { calls, onAbort };
      inFlight.set(runSignal, link);
      runSignal.addEventListener('abort', onAbort, { once: true });
    }
    const current = link;
    const { calls, onAbort } = current;
    calls.add(own);
    release = () => {
      if (!calls.delete(own) || calls.size > 0 || inFlight.get(runSignal) !== current) return;
      inFlight.delete(runSignal);
      runSignal.removeEventListener('abort', onAbort);
    };
  }
  if (timeoutMs === undefined || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) return { signal: own.signal, release };
  const timeout = AbortSignal.timeout(timeoutMs);
  return { signal: AbortSignal.any([own.signal, timeout]), timeout, release };
}

/**
 * Settles with the work, or rejects as soon as the signal aborts, so a tool that ignores its
 * signal cannot hold the run: `ToolTimeoutError` when the timeout fired, else `RunAbortedError`.
 * The work may be a plain value: a tool's `run()` need not be async (#23 point 18).
 */
export function untilAborted<T>(
  value: T | PromiseLike<T>,
  signal: AbortSignal,
  timeout: AbortSignal | undefined,
  toolName: string,
  timeoutMs: number | undefined,
): Promise<T> {
  const reason = () => (timeout?.aborted ? new ToolTimeoutError(toolName, timeoutMs ?? 0) : new RunAbortedError());
  return raceAbort(Promise.resolve(value), signal, reason);
}
