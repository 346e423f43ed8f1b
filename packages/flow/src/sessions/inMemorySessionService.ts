import { cloneData } from '../content/cloneData.js';
import type { Event } from '../content/event.js';
import { newId } from '../content/ids.js';
import type {
  CreateSessionRequest,
  GetSessionRequest,
  ListSessionsRequest,
  Session,
  SessionKey,
  SessionService,
} from './session.js';
import { applyEventToSession, eventForStorage, mergeScopedState, splitStateDelta } from './sessionState.js';
import { SessionError } from '../errors.js';

/** The stored form has the session's shape; app and user state live apart in their scopes. */
type StoredSession = Session;

/** Sessions in this process's memory; what it hands out are copies, so callers cannot corrupt it. */
export class InMemorySessionService implements SessionService {
  private readonly sessions = new Map<string, StoredSession>();
  private readonly appState = new Map<string, Record<string, unknown>>();
  private readonly userState = new Map<string, Record<string, unknown>>();

  async createSession(request: CreateSessionRequest): Promise<Session> {
    const id = request.sessionId ?? newId();
    const key = sessionKey(request.appName, request.userId, id);
    if (this.sessions.has(key))
      throw new SessionError(
        `Session "${id}" already exists for app "${request.appName}" and user "${request.userId}"; pass another sessionId or omit it.`,
      );
    const scoped = cloneData(splitStateDelta(request.state));
    Object.assign(this.scope(this.appState, request.appName), scoped.app);
    Object.assign(this.scope(this.userState, `${request.appName}\u0000${request.userId}`), scoped.user);
    const stored: StoredSession = {
      id,
      appName: request.appName,
      userId: request.userId,
      state: scoped.session,
      events: [],
      lastUpdateTime: Date.now(),
    };
    this.sessions.set(key, stored);
    return this.view(stored, true);
  }

  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    const stored = this.sessions.get(sessionKey(request.appName, request.userId, request.sessionId));
    if (!stored) return undefined;
    const session = this.view(stored, true);
    if (request.afterTimestamp !== undefined)
      session.events = session.events.filter((e) => e.timestamp >= request.afterTimestamp!);
    if (request.numRecentEvents !== undefined)
      session.events = request.numRecentEvents > 0 ? session.events.slice(-request.numRecentEvents) : [];
    return session;
  }

  async listSessions(request: ListSessionsRequest): Promise<Session[]> {
    const result: Session[] = [];
    for (const stored of this.sessions.values())
      if (stored.appName === request.appName && (request.userId === undefined || stored.userId === request.userId))
        result.push(this.view(stored, false));
    return result;
  }

  async deleteSession(request: SessionKey): Promise<void> {
    this.sessions.delete(sessionKey(request.appName, request.userId, request.sessionId));
  }

  async appendEvent(session: Session, event: Event): Promise<Event> {
    if (event.partial) return event;
    const stored = this.sessions.get(sessionKey(session.appName, session.userId, session.id));
    if (!stored)
      throw new SessionError(
        `Cannot append to session "${session.id}" of app "${session.appName}": it does not exist (deleted, or never created with createSession).`,
      );
    const forStorage = eventForStorage(event);
    const scoped = splitStateDelta(forStorage.actions.stateDelta);
    Object.assign(this.scope(this.appState, session.appName), scoped.app);
    Object.assign(this.scope(this.userState, `${session.appName}\u0000${session.userId}`), scoped.user);
    Object.assign(stored.state, scoped.session);
    stored.events.push(forStorage);
    stored.lastUpdateTime = event.timestamp;
    applyEventToSession(session, event);
    return event;
  }

  private scope(map: Map<string, Record<string, unknown>>, key: string): Record<string, unknown> {
    let scope = map.get(key);
    if (!scope) map.set(key, (scope = {}));
    return scope;
  }

  private view(stored: StoredSession, withEvents: boolean): Session {
    const state = mergeScopedState({
      app: this.appState.get(stored.appName) ?? {},
      user: this.userState.get(`${stored.appName}\u0000${stored.userId}`) ?? {},
      session: stored.state,
    });
    return cloneData({
      id: stored.id,
      appName: stored.appName,
      userId: stored.userId,
      state,
      events: withEvents ? stored.events : [],
      lastUpdateTime: stored.lastUpdateTime,
    });
  }
}

function sessionKey(appName: string, userId: string, sessionId: string): string {
  return `${appName}\u0000${userId}\u0000${sessionId}`;
}
