import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, isAdkitError, newId, SessionError, type CreateSessionRequest, type Event, type GetSessionRequest, type ListSessionsRequest, type Session, type SessionKey, type SessionService } from '@adkit/flow';
import { applyEventToSession, checkSessionVersion, decodeStoredEvent, deepFreeze, mergeScopedState, prepareStoredEvent, eventQuery, selectEvents, SessionEventCache, splitStateDelta, storedStateText } from '@adkit/flow/store';
import { MIGRATIONS, migrate } from './migrations.js';

/** Options of `SqliteSessionService`. */
export interface SqliteSessionServiceOptions {
  /** The database file (created if missing), or `':memory:'` for a private in-memory database. */
  path: string;
  /** How long a write waits for another connection's lock before failing, in ms. Default 5000. */
  busyTimeoutMs?: number;
  /**
   * How many sessions' decoded events to keep between calls, least recently used first out. A
   * cached session loads only the rows written since (by any process), so a turn costs the same
   * at 10 events as at 5,000. 0 keeps nothing: every read decodes the whole session. Default 256.
   */
  cachedSessions?: number;
}

type State = Record<string, unknown>;

interface SessionRow {
  user_id: string;
  id: string;
  state: string;
  update_time: number;
  version: number;
  incarnation: number;
}

interface SessionRowWithScopes extends SessionRow {
  app_state: string | null;
  user_state: string | null;
}

interface EventRow {
  seq: number;
  id: string;
  version: number;
  format: number;
  data: string;
}

const STORE = '@adkit/session-sqlite';

/** Which file the service opened: a file deleted or swapped in under it is told apart by its identity. */
interface FileIdentity {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}
const SESSION_COLUMNS = 'user_id, id, state, update_time, version, incarnation';

/**
 * Sessions in a SQLite file, with the in-memory service's semantics (TC-13: `app:` and `user:`
 * state shared, `temp:` keys and partial events never stored) and durable across restarts.
 * Every write is one transaction; the file is in WAL mode, so readers do not block the writer,
 * and several services (in one process or many) may share it. Each session has a version:
 * appending through a stale session fails with `SESSION_CONFLICT`, so two writers never
 * interleave one history. Recently used sessions stay decoded in memory (`cachedSessions`), and a
 * read loads only newer rows. Call `close()` when done.
 */
export class SqliteSessionService implements SessionService {
  private db: Database.Database | undefined;
  private readonly location: string;
  /** Prepared once per service, by SQL text. */
  private readonly statements = new Map<string, Database.Statement>();
  private readonly cache: SessionEventCache;
  private file?: FileIdentity;

  constructor(options: SqliteSessionServiceOptions) {
    if (typeof options?.path !== 'string' || options.path === '')
      throw new ConfigError(
        "SqliteSessionService needs a path: pass { path: 'sessions.db' } for a file, or { path: ':memory:' } for a private in-memory database.",
      );
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0)
      throw new ConfigError(`SqliteSessionService: busyTimeoutMs must be a whole number of milliseconds, 0 or more; got ${String(busyTimeoutMs)}.`);
    const cachedSessions = options.cachedSessions ?? 256;
    if (!Number.isInteger(cachedSessions) || cachedSessions < 0)
      throw new ConfigError(`SqliteSessionService: cachedSessions must be a whole number, 0 or more; got ${String(cachedSessions)}.`);
    this.location = `"${options.path}"`;
    this.cache = new SessionEventCache(cachedSessions);

    let db: Database.Database | undefined;
    try {
      db = new Database(options.path, { timeout: busyTimeoutMs });
      db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      // A damaged file fails here, clearly, instead of answering "no such session" for rows it lost.
      const check = db.pragma('quick_check', { simple: true }) as string;
      if (check !== 'ok') throw new SessionError(corruptMessage(this.location, check));
      migrate(db, MIGRATIONS, this.location);
      this.file = fileIdentity(options.path);
    } catch (cause) {
      db?.close();
      if (isAdkitError(cause)) throw cause;
      if ((cause as { code?: string }).code?.startsWith('SQLITE_CORRUPT'))
        throw new SessionError(corruptMessage(this.location, (cause as Error).message), { cause });
      throw new SessionError(`Cannot open session database ${this.location}: ${(cause as Error).message}.`, { cause });
    }
    this.db = db;
  }

  async createSession(request: CreateSessionRequest): Promise<Session> {
    const id = request.sessionId ?? newId();
    const key = { appName: request.appName, userId: request.userId, sessionId: id };
    const scoped = splitStateDelta(request.state);
    storedStateText(mergeScopedState(scoped), id);
    const sessionState = JSON.stringify(scoped.session);
    const session = this.write('createSession', () => {
      if (this.sessionRow(key))
        throw new SessionError(
          `Session "${id}" already exists for app "${request.appName}" and user "${request.userId}"; pass another sessionId or omit it.`,
        );
      this.mergeSharedState(request.appName, request.userId, scoped);
      const now = Date.now();
      const version = this.nextVersion();
      this.sql(
        'INSERT INTO adkit_sessions (app_name, user_id, id, state, create_time, update_time, version, incarnation) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(request.appName, request.userId, id, sessionState, now, now, version, version);
      return {
        id,
        appName: request.appName,
        userId: request.userId,
        state: this.mergedState(request.appName, request.userId, parseState(sessionState)),
        events: [],
        lastUpdateTime: now,
        version,
      };
    });
    this.cache.set(cacheKey(key), { incarnation: session.version, version: session.version, events: [] });
    return session;
  }

  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    return this.read('getSession', () => {
      const row = this.sql(
        `SELECT ${SESSION_COLUMNS},
           (SELECT state FROM adkit_app_states WHERE app_name = s.app_name) AS app_state,
           (SELECT state FROM adkit_user_states WHERE app_name = s.app_name AND user_id = s.user_id) AS user_state
         FROM adkit_sessions s WHERE app_name = ? AND user_id = ? AND id = ?`,
      ).get(request.appName, request.userId, request.sessionId) as SessionRowWithScopes | undefined;
      if (!row) return undefined;
      return {
        ...this.toSession(request.appName, row, parseState(row.app_state ?? undefined), parseState(row.user_state ?? undefined)),
        events: this.events(request, row),
      };
    });
  }

  async listSessions(request: ListSessionsRequest): Promise<Session[]> {
    return this.read('listSessions', () => {
      const rows = (
        request.userId === undefined
          ? this.sql(`SELECT ${SESSION_COLUMNS} FROM adkit_sessions WHERE app_name = ? ORDER BY rowid`).all(request.appName)
          : this.sql(`SELECT ${SESSION_COLUMNS} FROM adkit_sessions WHERE app_name = ? AND user_id = ? ORDER BY rowid`).all(
              request.appName,
              request.userId,
            )
      ) as SessionRow[];
      const appState = this.appState(request.appName);
      const userStates = new Map<string, State>();
      return rows.map((row) => {
        let userState = userStates.get(row.user_id);
        if (!userState) userStates.set(row.user_id, (userState = this.userState(request.appName, row.user_id)));
        return this.toSession(request.appName, row, appState, userState);
      });
    });
  }

  async deleteSession(request: SessionKey): Promise<void> {
    this.write('deleteSession', () => {
      const key = [request.appName, request.userId, request.sessionId];
      this.sql('DELETE FROM adkit_events WHERE app_name = ? AND user_id = ? AND session_id = ?').run(...key);
      this.sql('DELETE FROM adkit_sessions WHERE app_name = ? AND user_id = ? AND id = ?').run(...key);
    });
    this.cache.delete(cacheKey(request));
  }

  async appendEvent(session: Session, event: Event): Promise<Event> {
    this.open();
    if (event?.partial) return event;
    const { stored, row: encoded } = prepareStoredEvent(event, session.id);
    const scoped = splitStateDelta(stored.actions.stateDelta);
    const key = { appName: session.appName, userId: session.userId, sessionId: session.id };
    const { row, version } = this.write('appendEvent', () => {
      const row = this.sessionRow(key);
      if (!row)
        throw new SessionError(
          `Cannot append to session "${session.id}" of app "${session.appName}": it does not exist (deleted, or never created with createSession).`,
        );
      checkSessionVersion(session, row.version);
      this.mergeSharedState(session.appName, session.userId, scoped);
      const version = this.nextVersion();
      this.sql('UPDATE adkit_sessions SET state = ?, update_time = ?, version = ? WHERE app_name = ? AND user_id = ? AND id = ?').run(
        Object.keys(scoped.session).length > 0 ? JSON.stringify({ ...parseState(row.state), ...scoped.session }) : row.state,
        event.timestamp,
        version,
        session.appName,
        session.userId,
        session.id,
      );
      this.sql(
        'INSERT INTO adkit_events (app_name, user_id, session_id, id, timestamp, format, data, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(session.appName, session.userId, session.id, event.id, event.timestamp, encoded.format, encoded.data, version);
      return { row, version };
    });
    this.cache.appended(cacheKey(key), row.incarnation, row.version, version, deepFreeze(JSON.parse(encoded.data) as Event));
    applyEventToSession(session, event, version);
    return event;
  }

  /** Closes the database. Later calls fail with a clear error; closing twice is fine. */
  async close(): Promise<void> {
    this.statements.clear();
    this.cache.clear();
    this.db?.close();
    this.db = undefined;
  }

  private open(): Database.Database {
    if (!this.db)
      throw new SessionError(
        `This SqliteSessionService (${this.location}) is closed; create a new SqliteSessionService({ path }) to use the database again.`,
      );
    return this.db;
  }

  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.open().prepare(text)));
    return statement;
  }

  /** Runs `work` in one immediate (write-locking) transaction; SQLite failures become SessionErrors. */
  private write<T>(operation: string, work: () => T): T {
    const db = this.open();
    this.checkFile(operation);
    return this.guard(operation, () => db.transaction(work).immediate());
  }

  /** Runs `work` in one read transaction, so it sees a single consistent snapshot. */
  private read<T>(operation: string, work: () => T): T {
    const db = this.open();
    this.checkFile(operation);
    return this.guard(operation, () => db.transaction(work).deferred());
  }

  /**
   * Refuses to go on when the database file is no longer the one opened: SQLite keeps writing to
   * a deleted file's inode (and a replaced file's old one), so every later write would be lost
   * without a word. One `stat` per operation.
   */
  private checkFile(operation: string): void {
    const file = this.file;
    if (!file) return;
    let now: { dev: number; ino: number } | undefined;
    try {
      now = statSync(file.path);
    } catch {
      now = undefined;
    }
    if (now && now.dev === file.dev && now.ino === file.ino) return;
    const what = now ? 'was replaced by another file' : 'was deleted';
    throw new SessionError(
      `SqliteSessionService.${operation} refused: the database file ${this.location} ${what} while the service was running, so what it wrote would be lost. ` +
        'Nothing was written. Close this service, restore the file, and create a new SqliteSessionService({ path }).',
    );
  }

  private guard<T>(operation: string, work: () => T): T {
    try {
      return work();
    } catch (cause) {
      if (isAdkitError(cause)) throw cause;
      const message = (cause as Error).message;
      const code = (cause as { code?: string }).code;
      if (code?.startsWith('SQLITE_CORRUPT')) throw new SessionError(corruptMessage(this.location, message), { cause });
      const hint = code?.startsWith('SQLITE_BUSY') ? ' Another connection held the write lock longer than busyTimeoutMs; retry, or raise busyTimeoutMs.' : '';
      throw new SessionError(`SqliteSessionService.${operation} failed on ${this.location}: ${message}.${hint}`, { cause });
    }
  }

  /** The next version number, shared by every session in the file; call inside a write. */
  private nextVersion(): number {
    return this.sql('UPDATE adkit_version_counter SET last = last + 1 WHERE id = 1 RETURNING last').pluck().get() as number;
  }

  private sessionRow(key: SessionKey): SessionRow | undefined {
    return this.sql(`SELECT ${SESSION_COLUMNS} FROM adkit_sessions WHERE app_name = ? AND user_id = ? AND id = ?`).get(
      key.appName,
      key.userId,
      key.sessionId,
    ) as SessionRow | undefined;
  }

  private toSession(appName: string, row: SessionRow, appState: State, userState: State): Session {
    return {
      id: row.id,
      appName,
      userId: row.user_id,
      state: mergeScopedState({ app: appState, user: userState, session: parseState(row.state) }),
      events: [],
      lastUpdateTime: row.update_time,
      version: row.version,
    };
  }

  /**
   * The session's events for `request`, inside the read transaction that read `row`. A session
   * this service holds in its cache loads only the rows newer than the cached version; others are
   * loaded whole and cached, unless the request filters them (then only what it asks for is read).
   */
  private events(request: GetSessionRequest, row: SessionRow): Event[] {
    const key = cacheKey(request);
    let entry = this.cache.get(key, row.incarnation);
    const filtered = request.numRecentEvents !== undefined || request.afterTimestamp !== undefined;
    if (!entry && filtered) return this.filteredEvents(request);
    if (!entry || entry.version !== row.version) {
      const rows = this.sql(
        'SELECT seq, id, version, format, data FROM adkit_events WHERE app_name = ? AND user_id = ? AND session_id = ? AND version > ? ORDER BY version',
      ).all(request.appName, request.userId, request.sessionId, entry?.version ?? -1) as EventRow[];
      const loaded = rows.map((event) => this.decode(event, request.sessionId));
      entry ??= { incarnation: row.incarnation, version: row.version, events: [] };
      for (const event of loaded) entry.events.push(event);
      entry.version = row.version;
      this.cache.set(key, entry);
    }
    return selectEvents(entry.events, request);
  }

  /** Only the events a filtered request asks for, read directly (same results as `selectEvents`). */
  private filteredEvents(request: GetSessionRequest): Event[] {
    const query = eventQuery(request);
    if (!query) return [];
    const rows = this.sql(
      `SELECT seq, id, version, format, data FROM adkit_events
         WHERE app_name = ? AND user_id = ? AND session_id = ? AND (? IS NULL OR timestamp >= ?)
         ORDER BY seq DESC LIMIT ?`,
    ).all(request.appName, request.userId, request.sessionId, query.after, query.after, query.limit ?? -1) as EventRow[];
    return rows.reverse().map((event) => this.decode(event, request.sessionId));
  }

  private decode(row: EventRow, sessionId: string): Event {
    return decodeStoredEvent(row, `Event "${row.id}" (row ${row.seq}) of session "${sessionId}"`, STORE);
  }

  private mergeSharedState(appName: string, userId: string, scoped: { app: State; user: State }): void {
    if (Object.keys(scoped.app).length > 0)
      this.sql('INSERT INTO adkit_app_states (app_name, state) VALUES (?, ?) ON CONFLICT (app_name) DO UPDATE SET state = excluded.state').run(
        appName,
        JSON.stringify({ ...this.appState(appName), ...scoped.app }),
      );
    if (Object.keys(scoped.user).length > 0)
      this.sql(
        'INSERT INTO adkit_user_states (app_name, user_id, state) VALUES (?, ?, ?) ON CONFLICT (app_name, user_id) DO UPDATE SET state = excluded.state',
      ).run(appName, userId, JSON.stringify({ ...this.userState(appName, userId), ...scoped.user }));
  }

  private mergedState(appName: string, userId: string, session: State): State {
    return mergeScopedState({ app: this.appState(appName), user: this.userState(appName, userId), session });
  }

  private appState(appName: string): State {
    return parseState(this.sql('SELECT state FROM adkit_app_states WHERE app_name = ?').pluck().get(appName) as string | undefined);
  }

  private userState(appName: string, userId: string): State {
    return parseState(
      this.sql('SELECT state FROM adkit_user_states WHERE app_name = ? AND user_id = ?').pluck().get(appName, userId) as string | undefined,
    );
  }
}

/** The identity of a database file; none for in-memory and temporary databases. */
function fileIdentity(path: string): FileIdentity | undefined {
  if (path === ':memory:' || path === '' || path.startsWith('file:')) return undefined;
  const absolute = resolve(path);
  const { dev, ino } = statSync(absolute);
  return { path: absolute, dev, ino };
}

function corruptMessage(location: string, detail: string): string {
  const found = detail.replace(/\*\*\* in database main \*\*\*/g, '').replace(/\s+/g, ' ').trim().slice(0, 300);
  return `The session database ${location} is corrupted (${found}); no session can be trusted from it. Restore the file from a backup, or move it away to start empty.`;
}

/** The cache's key for a session. */
function cacheKey(key: SessionKey): string {
  return `${key.appName}\u0000${key.userId}\u0000${key.sessionId}`;
}


function parseState(json: string | undefined): State {
  return json === undefined ? {} : (JSON.parse(json) as State);
}

