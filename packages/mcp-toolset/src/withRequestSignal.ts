/** Requests made so far with each caller signal (see `requestSignal`). */
const requests = new WeakMap<AbortSignal, number>();

/** How many requests a caller signal goes to the SDK as it is. */
const DIRECT_REQUESTS = 4;

const NOTHING = () => {};

/**
 * The signal to give the SDK for one request, aborting when `parent` aborts. The SDK adds an abort
 * listener to a request's signal and never removes it. A signal made for one call (what the flow
 * gives each tool call) is passed as it is, which costs nothing; a signal reused for more than 4
 * requests (a long-lived one) gets, from then on, a signal of its own per request, unlinked by
 * `release()` when the request is over, so at most 4 listeners ever stay on it.
 */
export function requestSignal(parent: AbortSignal): { signal: AbortSignal; release(): void } {
  const count = requests.get(parent) ?? 0;
  if (count < DIRECT_REQUESTS) {
    requests.set(parent, count + 1);
    return { signal: parent, release: NOTHING };
  }
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: NOTHING };
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener('abort', onAbort) };
}
