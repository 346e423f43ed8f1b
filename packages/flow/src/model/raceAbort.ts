/**
 * Settles with `work`, or rejects as soon as `signal` aborts, so work that ignores its signal (a
 * tool, a validator, an SDK's retry wait) cannot hold its caller. The rejection is `reason()`,
 * by default the signal's own reason. The work's own outcome is still observed, so a rejection
 * that comes after the abort is never reported as unhandled.
 */
export function raceAbort<T>(work: PromiseLike<T>, signal: AbortSignal, reason: () => unknown = () => signal.reason): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason());
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
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
