import { cloneData, frozenEventCopy } from '../content/cloneData.js';
import type { Event } from '../content/event.js';
import { newId } from '../content/ids.js';
import { assignOwn, hasOwnKeys } from '../content/ownProperty.js';
import type {
  CreateSessionRequest,
  GetSessionRequest,
  ListSessionsRequest,
  Session,
  SessionKey,
  SessionService,
} from './session.js';
import { applyEventToSession, mergeScopedState, splitStateDelta, withoutTempState } from './sessionState.js';
import { checkSessionVersion } from './sessionVersion.js';
import { selectEvents } from './selectEvents.js';
import { SessionError } from '../errors.js';

/**
 * The stored form has the session's shape, with its stored version and the version it was created
 * at (its place in a list); app and user state live apart in their scopes. Its events are
 * deep-frozen copies, shared with every reader.
 */
type StoredSession = Session & { version: number; created: number };

/**
 * Sessions in this process's memory. Callers cannot corrupt it: state is copied on the way in and
 * out, and events are stored as deep-frozen copies that every read shares, so loading a session
 * costs the same whatever its length (one array copy). A stale session is refused on append
 * (`SESSION_CONFLICT`), as the durable stores do.
 */
export class InMemorySessionService implements SessionService {
  /**
   * Sessions by app, then user, then id: three lookups of strings whose hashes V8 keeps with them,
   * not a key joined from the three and hashed again at every read and append (6% of a turn, #24).
   */
  private readonly sessions = new Map<string, Map<string, Map<string, StoredSession>>>();
  /** The last version handed out, by any session: versions are never reused, even across deletes. */
  private lastVersion = 0;
  private readonly appState = new Map<string, Record<string, unknown>>();
  /** User state by app, then user. */
  private readonly userState = new Map<string, Map<string, Record<string, unknown>>>();

  async createSession(request: CreateSessionRequest): Promise<Session> {
    const id = request.sessionId ?? newId();
    if (this.find(request.appName, request.userId, id))
      throw new SessionError(
        `Session "${id}" already exists for app "${request.appName}" and user "${request.userId}"; pass another sessionId or omit it.`,
      );
    const scoped = cloneData(splitStateDelta(request.state));
    assignOwn(this.scope(this.appState, request.appName), scoped.app);
    assignOwn(this.scope(inner(this.userState, request.appName), request.userId), scoped.user);
    const stored: StoredSession = {
      id,
      appName: request.appName,
      userId: request.userId,
      state: scoped.session,
      events: [],
      lastUpdateTime: Date.now(),
      version: ++this.lastVersion,
      created: this.lastVersion,
    };
    inner(inner(this.sessions, request.appName), request.userId).set(id, stored);
    return this.view(stored);
  }

  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    const stored = this.find(request.appName, request.userId, request.sessionId);
    if (!stored) return undefined;
    const session = this.view(stored);
    session.events = selectEvents(stored.events, request);
    return session;
  }

  async listSessions(request: ListSessionsRequest): Promise<Session[]> {
    const users = this.sessions.get(request.appName);
    if (!users) return [];
    const lists = request.userId === undefined ? [...users.values()] : [users.get(request.userId)];
    const found: StoredSession[] = [];
    for (const list of lists) if (list) for (const stored of list.values()) found.push(stored);
    // Several users' sessions in the order they were created, as each user's map keeps its own.
    if (lists.length > 1) found.sort((a, b) => a.created - b.created);
    return found.map((stored) => this.view(stored));
  }

  async deleteSession(request: SessionKey): Promise<void> {
    const users = this.sessions.get(request.appName);
    const list = users?.get(request.userId);
    if (!list?.delete(request.sessionId) || list.size > 0) return;
    // No empty maps left behind: a store that sees many short sessions does not grow.
    users!.delete(request.userId);
    if (users!.size === 0) this.sessions.delete(request.appName);
  }

  async appendEvent(session: Session, event: Event): Promise<Event> {
    if (event.partial) return event;
    const stored = this.find(session.appName, session.userId, session.id);
    if (!stored)
      throw new SessionError(
        `Cannot append to session "${session.id}" of app "${session.appName}": it does not exist (deleted, or never created with createSession).`,
      );
    checkSessionVersion(session, stored.version);
    const withoutTemp = withoutTempState(event);
    const forStorage = frozenEventCopy(withoutTemp);
    // Most events change no state: no scopes to split or look up (#24).
    if (hasOwnKeys(forStorage.actions.stateDelta)) {
      const scoped = splitStateDelta(forStorage.actions.stateDelta);
      assignOwn(this.scope(this.appState, session.appName), scoped.app);
      assignOwn(this.scope(inner(this.userState, session.appName), session.userId), scoped.user);
      assignOwn(stored.state, scoped.session);
    }
    stored.events.push(forStorage);
    stored.lastUpdateTime = event.timestamp;
    stored.version = ++this.lastVersion;
    // The session lists the stored frozen copy, the one every later read hands out: the history
    // built for this invocation's next step, and for the next turn, is the kept one extended
    // (buildContents), not this invocation's events processed again at every step (#24). An event
    // with temp: keys is listed as given, so this invocation still sees them (TC-13).
    applyEventToSession(session, event, stored.version, withoutTemp === event ? forStorage : event);
    return event;
  }

  private find(appName: string, userId: string, sessionId: string): StoredSession | undefined {
    return this.sessions.get(appName)?.get(userId)?.get(sessionId);
  }

  private scope(map: Map<string, Record<string, unknown>>, key: string): Record<string, unknown> {
    let scope = map.get(key);
    if (!scope) map.set(key, (scope = {}));
    return scope;
  }

  /** The stored session as the caller's own object: merged, copied state; no events. */
  private view(stored: StoredSession): Session {
    const state = mergeScopedState({
      app: this.appState.get(stored.appName) ?? {},
      user: this.userState.get(stored.appName)?.get(stored.userId) ?? {},
      session: stored.state,
    });
    return {
      id: stored.id,
      appName: stored.appName,
      userId: stored.userId,
      state: cloneData(state),
      events: [],
      lastUpdateTime: stored.lastUpdateTime,
      version: stored.version,
    };
  }
}

/** The map `outer` holds under `key`, made when missing. */
function inner<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let map = outer.get(key);
  if (!map) outer.set(key, (map = new Map()));
  return map;
}
