import { getEventListeners } from 'node:events';

/** A caller signal carrying this many abort listeners no longer goes to the SDK as it is. */
const DIRECT_LISTENERS = 4;

/**
 * Sends one SDK request with the signal to give it, one that aborts when `parent` aborts. The SDK
 * adds an abort listener to a request's signal and never removes it. A signal carrying fewer than
 * 4 abort listeners (what the flow gives each tool call carries none) is passed as it is, which
 * costs nothing; one carrying 4 (a long-lived signal reused for many requests) gets a signal of
 * its own for the request, unlinked from it when the request settles, so at most 4 listeners stay
 * on it. `send` must hand the signal to the SDK before it returns (the SDK's request methods
 * do): the listeners are counted then, so requests sent at once are counted too.
 *
 * Counting the listeners the signal carries, rather than keeping a count per signal in a
 * `WeakMap`, spares every call a `WeakMap` entry: about a microsecond a call (#24).
 */
export function withRequestSignal<T>(parent: AbortSignal, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (abortListeners(parent) < DIRECT_LISTENERS) return send(parent);
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return send(controller.signal);
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  const unlink = () => parent.removeEventListener('abort', onAbort);
  let pending: Promise<T>;
  try {
    pending = send(controller.signal);
  } catch (error) {
    unlink();
    throw error;
  }
  return pending.finally(unlink);
}

/** The abort listeners on `signal`; for a look-alike that is not Node's own `EventTarget`, as many as makes it linked. */
function abortListeners(signal: AbortSignal): number {
  try {
    return getEventListeners(signal, 'abort').length;
  } catch {
    return DIRECT_LISTENERS;
  }
}
