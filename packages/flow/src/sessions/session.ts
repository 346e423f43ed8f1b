import type { Event } from '../content/event.js';

/**
 * A conversation: its state (app and user keys merged in, with their prefixes) and events.
 *
 * The events a service hands out are its stored events, deep-frozen and shared with every other
 * reader (no copy per read, so loading a long session costs little): changing one throws a
 * `TypeError`. Copy an event (`structuredClone(event)`) to change it. The array itself and the
 * state are the caller's own.
 */
export interface Session {
  id: string;
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  events: Event[];
  /** Milliseconds since the epoch of the last appended event (or creation). */
  lastUpdateTime: number;
  /**
   * The stored session's version when this object was loaded: it changes with every append, and
   * a session created again under a deleted one's id never reuses an old version. `appendEvent`
   * refuses a session whose version is not the stored one (`SESSION_CONFLICT`), so two runners
   * never interleave their histories. Opaque: compare for equality only. A session built by hand
   * without it is appended without that check.
   */
  version?: number;
}

export interface CreateSessionRequest {
  appName: string;
  userId: string;
  sessionId?: string;
  /** Initial state; `app:` and `user:` keys go to their shared scopes, `temp:` keys are dropped. */
  state?: Record<string, unknown>;
}

export interface SessionKey {
  appName: string;
  userId: string;
  sessionId: string;
}

export interface GetSessionRequest extends SessionKey {
  /** Keep only the newest N events. */
  numRecentEvents?: number;
  /** Keep only events at or after this time (ms since the epoch). */
  afterTimestamp?: number;
}

export interface ListSessionsRequest {
  appName: string;
  /** All users of the app when absent. */
  userId?: string;
}

/**
 * Where sessions live. Implementations: `InMemorySessionService` here, `SqliteSessionService` in
 * `@adkit/session-sqlite`, `PostgresSessionService` in `@adkit/session-postgres`. Nothing in the
 * flow assumes the session lives in memory: runners are stateless, any process may run any turn.
 */
export interface SessionService {
  createSession(request: CreateSessionRequest): Promise<Session>;
  /** Resolves to `undefined` when there is no such session. */
  getSession(request: GetSessionRequest): Promise<Session | undefined>;
  /** Sessions without their events. */
  listSessions(request: ListSessionsRequest): Promise<Session[]>;
  deleteSession(request: SessionKey): Promise<void>;
  /**
   * Saves the event and applies its state delta to `session` (and moves `session.version` on).
   * Partial events are returned untouched and not saved; `temp:` keys are applied to `session`
   * but never saved. Rejects with a `SessionConflictError` (code `SESSION_CONFLICT`), storing
   * nothing, when `session.version` is not the stored version: someone else appended first.
   */
  appendEvent(session: Session, event: Event): Promise<Event>;
}
