import type { Event } from '../content/event.js';

/** A conversation: its state (app and user keys merged in, with their prefixes) and events. */
export interface Session {
  id: string;
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  events: Event[];
  /** Milliseconds since the epoch of the last appended event (or creation). */
  lastUpdateTime: number;
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
 * `@adkit/session-sqlite`. Nothing in the flow assumes the session lives in memory.
 */
export interface SessionService {
  createSession(request: CreateSessionRequest): Promise<Session>;
  /** Resolves to `undefined` when there is no such session. */
  getSession(request: GetSessionRequest): Promise<Session | undefined>;
  /** Sessions without their events. */
  listSessions(request: ListSessionsRequest): Promise<Session[]>;
  deleteSession(request: SessionKey): Promise<void>;
  /**
   * Saves the event and applies its state delta to `session`. Partial events are returned
   * untouched and not saved; `temp:` keys are applied to `session` but never saved.
   */
  appendEvent(session: Session, event: Event): Promise<Event>;
}
