interface Link {
  readonly requests: Set<AbortController>;
  readonly onAbort: () => void;
}

// The requests in flight on each caller signal, with the one listener that aborts them all. This
// is per-signal bookkeeping, not a cache: an entry lives only while a request on that signal is in
// flight (a WeakMap, so an unsettled signal is not kept either). However many requests share a
// signal, it carries at most one listener from here, and none once they have finished.
const links = new WeakMap<AbortSignal, Link>();

/** The signal of one SDK request, linked to the caller's signal. */
export interface RequestSignal {
  /** Give this to the SDK: it aborts when the caller's signal does, or when the request is closed. */
  readonly signal: AbortSignal;
  /** Ends the request: unlinks it from the caller's signal and aborts it (releasing the connection). */
  close(): void;
}

/**
 * A fresh signal for one SDK request, linked to `caller`, for model adapters. SDKs add an abort
 * listener to the signal of every request and do not always remove it (`openai` never does,
 * `@google/genai` only on failure); given a run's signal, shared by many model calls, those
 * listeners pile up (MaxListenersExceededWarning after ten, memory growing with every call). The
 * SDK gets this request's own signal instead, so its listeners go away with the request; the
 * caller's signal carries one listener of ours while requests on it are in flight. Call `close()`
 * however the request ends (done, failed, consumer stopped early).
 */
export function requestSignal(caller: AbortSignal | undefined): RequestSignal {
  const controller = new AbortController();
  let closed = false;
  if (caller?.aborted) controller.abort(caller.reason);
  else if (caller) {
    let link = links.get(caller);
    if (!link) {
      const requests = new Set<AbortController>();
      const onAbort = () => {
        links.delete(caller);
        for (const request of requests) request.abort(caller.reason);
        requests.clear();
      };
      link = { requests, onAbort };
      links.set(caller, link);
      caller.addEventListener('abort', onAbort, { once: true });
    }
    link.requests.add(controller);
  }
  return {
    signal: controller.signal,
    close() {
      if (closed) return;
      closed = true;
      const link = caller ? links.get(caller) : undefined;
      if (caller && link?.requests.delete(controller) && link.requests.size === 0) {
        caller.removeEventListener('abort', link.onAbort);
        links.delete(caller);
      }
      controller.abort();
    },
  };
}
