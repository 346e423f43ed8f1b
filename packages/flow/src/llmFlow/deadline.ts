import { AdkitError } from '../errors.js';
import { raceAbort } from '../model/raceAbort.js';
import type { RunCancellation } from '../context/runCancellation.js';

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

/** A signal for one tool call, linked to the run's cancellation; `release()` unlinks it once the call is done. */
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

/**
 * A call with no time limit: its AbortController is made only when something reads its signal
 * (most tools never do), and `until` waits without a listener of its own (#24: a controller and
 * two listener changes per call were a tenth of a runner turn). Cancelled with the run, as an
 * eager signal would be; released first, it stays as it ended.
 */
class UntimedCall implements CallSignal {
  #controller?: AbortController;
  #cancelled = false;
  #reason: unknown;
  /** What rejects the waits in progress: the first alone (a call waits once), any more in a set (#24). */
  #waiter?: (error: unknown) => void;
  #waiting?: Set<(error: unknown) => void>;
  readonly #unlink: () => void;

  constructor(run: RunCancellation) {
    if (run.aborted) {
      this.#cancelled = true;
      this.#reason = run.reason;
      this.#unlink = () => {};
    } else this.#unlink = run.onAbort((reason) => this.cancel(reason));
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
    const waiter = this.#waiter;
    const waiting = this.#waiting;
    this.#waiter = undefined;
    this.#waiting = undefined;
    waiter?.(new RunAbortedError());
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
      this.#wait(reject);
      work.then(
        (value) => {
          this.#done(reject);
          resolve(value);
        },
        (error: unknown) => {
          this.#done(reject);
          reject(error);
        },
      );
    });
  }

  #wait(reject: (error: unknown) => void): void {
    if (this.#waiter === undefined) this.#waiter = reject;
    else (this.#waiting ??= new Set()).add(reject);
  }

  #done(reject: (error: unknown) => void): void {
    if (this.#waiter === reject) this.#waiter = undefined;
    else this.#waiting?.delete(reject);
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
export function callSignal(run: RunCancellation, timeoutMs: number | undefined): CallSignal {
  if (timeoutMs === undefined || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) return new UntimedCall(run);
  const own = new AbortController();
  const release = run.onAbort((reason) => own.abort(reason));
  if (run.aborted) own.abort(run.reason);
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
