/**
 * How a run is cancelled, as the flow reads it. The flow checks `aborted` between its steps and
 * links each tool call with `onAbort`; neither needs an `AbortSignal`, so the run's signal is made
 * only when something asks for it (a model adapter, a tool, a callback reading `ctx.signal`). An
 * AbortSignal and its listeners were about a tenth of a runner turn (#24).
 */
export interface RunCancellation {
  readonly aborted: boolean;
  /** Why the run was cancelled; `undefined` while it runs. */
  readonly reason: unknown;
  /** The run's AbortSignal: aborted with `reason` when the run is cancelled. */
  readonly signal: AbortSignal;
  /**
   * Calls `listener` once, with the reason, when the run is cancelled (never when it already is);
   * returns how to stop listening.
   */
  onAbort(listener: (reason: unknown) => void): () => void;
}

/** The runner's own cancellation: `abort()` cancels the run; its signal is made on first read. */
export class RunCanceller implements RunCancellation {
  #aborted = false;
  #reason: unknown;
  #controller?: AbortController;
  readonly #listeners = new Set<(reason: unknown) => void>();

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Cancels the run once; a later call changes nothing. The signal's listeners run first, then `onAbort`'s. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const listeners = [...this.#listeners];
    this.#listeners.clear();
    for (const listener of listeners) listener(reason);
  }

  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.#aborted) return () => {};
    // Wrapped, so the same function given twice is two registrations, each removed on its own.
    const entry = (reason: unknown) => listener(reason);
    this.#listeners.add(entry);
    return () => this.#listeners.delete(entry);
  }
}

/**
 * A plain AbortSignal read as a run's cancellation: however many calls link to it, the signal
 * carries one listener of ours, and none once they are all done (more than ten listeners print
 * MaxListenersExceededWarning, #23 point 15).
 */
export function cancellationOfSignal(signal: AbortSignal): RunCancellation {
  return new SignalCancellation(signal);
}

class SignalCancellation implements RunCancellation {
  readonly #listeners = new Set<(reason: unknown) => void>();

  constructor(readonly signal: AbortSignal) {}

  get aborted(): boolean {
    return this.signal.aborted;
  }

  get reason(): unknown {
    return this.signal.reason;
  }

  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.signal.aborted) return () => {};
    const entry = (reason: unknown) => listener(reason);
    if (this.#listeners.size === 0) this.signal.addEventListener('abort', this.#fire, { once: true });
    this.#listeners.add(entry);
    return () => {
      if (this.#listeners.delete(entry) && this.#listeners.size === 0) this.signal.removeEventListener('abort', this.#fire);
    };
  }

  readonly #fire = () => {
    const waiting = [...this.#listeners];
    this.#listeners.clear();
    for (const listener of waiting) listener(this.signal.reason);
  };
}

/** True for a `RunCancellation` rather than an AbortSignal (checked by its capability). */
export function isRunCancellation(value: AbortSignal | RunCancellation): value is RunCancellation {
  return typeof (value as Partial<RunCancellation>).onAbort === 'function';
}
