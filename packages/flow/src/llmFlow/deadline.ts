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
  /** The call's own signal, aborted when the run's is (or its timeout fires). */
  readonly signal: AbortSignal;
  /** The call's own timeout, when it has one (to tell a timeout from a cancelled run). */
  readonly timeout?: AbortSignal;
  /**
   * Settles with the work, or rejects as soon as the call is cancelled, so a tool that ignores its
   * signal cannot hold the run: `ToolTimeoutError` when the timeout fired, else `RunAbortedError`.
   * The work may be a plain value: a tool's `run()` need not be async (#23 point 18).
   */
  until<T>(work: T | PromiseLike<T>, toolName: string): Promise<T>;
  release(): void;
}

/** A call as its run's link sees it: cancelled when the run's signal aborts. */
interface LinkedCall {
  cancel(reason: unknown): void;
}

// The calls in flight on each run signal, with the one listener that cancels them all. However many
// run at once, the run's signal carries that one listener, and none once they are done: with a
// listener per call, more than ten parallel calls printed MaxListenersExceededWarning (#23 point
// 15), and tools that listen on their signal (fetch, SDKs) added theirs to the run's too.
const inFlight = new WeakMap<AbortSignal, { calls: Set<LinkedCall>; onAbort: () => void }>();

/** Adds `call` to the run signal's one listener; returns how to take it off again. */
function link(runSignal: AbortSignal, call: LinkedCall): () => void {
  let current = inFlight.get(runSignal);
  if (!current) {
    const calls = new Set<LinkedCall>();
    const onAbort = () => {
      inFlight.delete(runSignal);
      for (const linked of calls) linked.cancel(runSignal.reason);
      calls.clear();
    };
    current = { calls, onAbort };
    inFlight.set(runSignal, current);
    runSignal.addEventListener('abort', onAbort, { once: true });
  }
  const entry = current;
  entry.calls.add(call);
  return () => {
    if (!entry.calls.delete(call) || entry.calls.size > 0 || inFlight.get(runSignal) !== entry) return;
    inFlight.delete(runSignal);
    runSignal.removeEventListener('abort', entry.onAbort);
  };
}

/**
 * A call with no time limit: its AbortController is made only when something reads its signal
 * (most tools never do), and `until` waits without a listener of its own (#24: a controller and
 * two listener changes per call were a tenth of a runner turn). Cancelled with the run, as an
 * eager signal would be; released first, it stays as it ended.
 */
class UntimedCall implements CallSignal, LinkedCall {
  #controller?: AbortController;
  #cancelled = false;
  #reason: unknown;
  #waiting?: Set<(error: unknown) => void>;
  readonly #unlink: () => void;

  constructor(runSignal: AbortSignal) {
    if (runSignal.aborted) {
      this.#cancelled = true;
      this.#reason = runSignal.reason;
      this.#unlink = () => {};
    } else this.#unlink = link(runSignal, this);
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#cancelled) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get timeout(): undefined {
    return undefined;
  }

  cancel(reason: unknown): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting) for (const reject of waiting) reject(new RunAbortedError());
  }

  until<T>(work: T | PromiseLike<T>): Promise<T> {
    if (this.#cancelled) {
      // Observed, so a rejection after the cancel is never reported as unhandled.
      if (isThenable(work)) work.then(undefined, () => {});
      return Promise.reject(new RunAbortedError());
    }
    if (!isThenable(work)) return Promise.resolve(work);
    return new Promise<T>((resolve, reject) => {
      const waiting = (this.#waiting ??= new Set());
      waiting.add(reject);
      work.then(
        (value) => {
          waiting.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          waiting.delete(reject);
          reject(error);
        },
      );
    });
  }

  release(): void {
    this.#unlink();
  }
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as PromiseLike<T> | null)?.then === 'function';
}

/**
 * A signal for one tool call: its own, aborted when the run's signal is, joined with a timeout
 * when there is one.
 */
export function callSignal(runSignal: AbortSignal, timeoutMs: number | undefined): CallSignal {
  if (timeoutMs === undefined || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) return new UntimedCall(runSignal);
  const own = new AbortController();
  const release = runSignal.aborted ? () => {} : link(runSignal, { cancel: (reason) => own.abort(reason) });
  if (runSignal.aborted) own.abort(runSignal.reason);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([own.signal, timeout]);
  return {
    signal,
    timeout,
    release,
    until: (work, toolName) =>
      raceAbort(Promise.resolve(work), signal, () => (timeout.aborted ? new ToolTimeoutError(toolName, timeoutMs) : new RunAbortedError())),
  };
}
