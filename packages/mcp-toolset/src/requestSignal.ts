/**
 * A signal of its own for one request, aborted when `parent` aborts. The SDK adds an abort
 * listener to the signal of every request and never removes it; a long-lived signal (a run's,
 * reused across many calls) would collect one per call. `release()` unlinks it when the request
 * is over.
 */
export function linkedSignal(parent: AbortSignal): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: () => {} };
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener('abort', onAbort) };
}
