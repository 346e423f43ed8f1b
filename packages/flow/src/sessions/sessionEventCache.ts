import type { Event } from '../content/event.js';

/** A session's events as a store last read them: which incarnation, up to which version. */
export interface CachedSessionEvents {
  /** Tells a session apart from one deleted and created again under its id (its creation version). */
  incarnation: number;
  /** The session's version these events are complete up to. */
  version: number;
  /** Decoded, deep-frozen events, oldest first. The cache's own array: copy before handing out. */
  events: Event[];
}

/**
 * The events of recently used sessions, decoded once and kept between calls, so a durable store
 * loads only the rows newer than what it holds (a per-session version) and parses each row once:
 * the cost of loading a session stays flat as it grows. Least recently used sessions are
 * forgotten past `capacity`; a capacity of 0 keeps nothing.
 */
export class SessionEventCache {
  private readonly entries = new Map<string, CachedSessionEvents>();

  constructor(readonly capacity: number) {}

  /** The entry for this incarnation of the session (now the most recently used), if any. */
  get(key: string, incarnation: number): CachedSessionEvents | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.incarnation !== incarnation) return undefined;
    this.entries.set(key, entry);
    return entry;
  }

  /** The entry for the session, whatever its incarnation, without marking it used. */
  peek(key: string): CachedSessionEvents | undefined {
    return this.entries.get(key);
  }

  /** Remembers a session's events, complete up to `entry.version`. */
  set(key: string, entry: CachedSessionEvents): void {
    if (this.capacity <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /**
   * After this process appended `event` (deep-frozen, as stored), taking the session from version
   * `from` to `to`: extends the entry when it held exactly `from`, else forgets it.
   */
  appended(key: string, incarnation: number, from: number, to: number, event: Event): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    if (entry.incarnation !== incarnation || entry.version !== from) {
      this.entries.delete(key);
      return;
    }
    entry.events.push(event);
    entry.version = to;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
