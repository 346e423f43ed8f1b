/** Who listens to a session: each open page's event stream. */
export type HubListener = (message: string) => void;

/**
 * The live side of the dev UI, per session: the pages listening (server-sent events) and the
 * run going on, at most one a session (a second would conflict on the session's events anyway).
 */
export class SessionHub {
  private readonly listeners = new Map<string, Set<HubListener>>();
  private readonly runs = new Map<string, AbortController>();

  /** Delivers every message published for `key` to `listener`; returns the unsubscribe function. */
  listen(key: string, listener: HubListener): () => void {
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
    };
  }

  /** Sends a message (JSON) to the session's listeners. */
  publish(key: string, message: Record<string, unknown>): void {
    const set = this.listeners.get(key);
    if (!set || set.size === 0) return;
    const text = JSON.stringify(message);
    for (const listener of [...set]) listener(text);
  }

  /** Claims the session for a run; `undefined` when one is going on already. */
  claim(key: string): AbortController | undefined {
    if (this.runs.has(key)) return undefined;
    const controller = new AbortController();
    this.runs.set(key, controller);
    return controller;
  }

  release(key: string, controller: AbortController): void {
    if (this.runs.get(key) === controller) this.runs.delete(key);
  }

  isRunning(key: string): boolean {
    return this.runs.has(key);
  }

  /** Cancels every run (the server is closing). */
  abortAll(reason: unknown): void {
    for (const controller of this.runs.values()) controller.abort(reason);
  }
}
