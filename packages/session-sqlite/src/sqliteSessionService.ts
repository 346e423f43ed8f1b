import Database from 'better-sqlite3';
import {
  applyEventToSession,
  ConfigError,
  isAdkitError,
  mergeScopedState,
  newId,
  SessionError,
  splitStateDelta,
  withoutTempState,
  type CreateSessionRequest,
  type Event,
  type GetSessionRequest,
  type ListSessionsRequest,
  type Session,
  type SessionKey,
  type SessionService,
} from '@adkit/flow';
import { decodeEvent, encodeEvent } from './eventFormat.js';
import { toJsonText } from './jsonText.js';
import { MIGRATIONS, migrate } from './migrations.js';

/** Options of `SqliteSessionService`. */
export interface SqliteSessionServiceOptions {
  /** The database file (created if missing), or `':memory:'` for a private in-memory database. */
  path: string;
  /** How long a write waits for another connection's lock before failing, in ms. Default 5000. */
  busyTimeoutMs?: number;
}

type State = Record<string, unknown>;

interface SessionRow {
  user_id: string;
  id: string;
  state: string;
  update_time: number;
}

interface EventRow {
  seq: number;
  id: string;
  format: number;
  data: string;
}

/**
 * Sessions in a SQLite file, with the in-memory service's semantics (TC-13: `app:` and `user:`
 * state shared, `temp:` keys and partial events never stored) and durable across restarts.
 * Every write is one transaction; the file is in WAL mode, so readers do not block the writer,
 * and several services (in one process or many) may share it. Call `close()` when done.
 */
export class SqliteSessionService implements SessionService {
  private db: Database.Database | undefined;
  private readonly location: string;
  /** Prepared once per service, by SQL text. */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(options: SqliteSessionServiceOptions) {
    if (typeof options?.path !== 'string' || options.path === '')
      throw new ConfigError(
        "SqliteSessionService needs a path: pass { path: 'sessions.db' } for a file, or { path: ':memory:' } for a private in-memory database.",
      );
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0)
      throw new ConfigError(`SqliteSessionService: busyTimeoutMs must be a whole number of milliseconds, 0 or more; got ${String(busyTimeoutMs)}.`);
    this.location = `"${options.path}"`;

    let db: Database.Database | undefined;
    try {
      db = new Database(options.path, { timeout: busyTimeoutMs });
      db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      migrate(db, MIGRATIONS, this.location);
    } catch (cause) {
      db?.close();
      if (isAdkitError(cause)) throw cause;
      throw new SessionError(`Cannot open session database ${this.location}: ${(cause as Error).message}.`, { cause });
    }
    this.db = db;
  }

  async createSession(request: CreateSessionRequest): Promise<Session> {
    const id = request.sessionId ?? newId();
    const key = { appName: request.appName, userId: request.userId, sessionId: id };
    const scoped = splitStateDelta(request.state);
    jsonOrThrow(`Cannot create session "${id}"`, () => toJsonText(mergeScopedState(scoped), 'state'));
    const sessionState = JSON.stringify(scoped.session);
    return this.write('createSession', () => {
      if (this.sessionRow(key))
        throw new SessionError(
          `Session "${id}" already exists for app "${request.appName}" and user "${request.userId}"; pass another sessionId or omit it.`,
        );
      this.mergeSharedState(request.appName, request.userId, scoped);
      const now = Date.now();
      this.sql(
        'INSERT INTO adkit_sessions (app_name, user_id, id, state, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(request.appName, request.userId, id, sessionState, now, now);
      return {
        id,
        appName: request.appName,
        userId: request.userId,
        state: this.mergedState(request.appName, request.userId, parseState(sessionState)),
        events: [],
        lastUpdateTime: now,
      };
    });
  }

  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    return this.read('getSession', () => {
      const row = this.sessionRow(request);
      if (!row) return undefined;
      return {
        id: row.id,
        appName: request.appName,
        userId: row.user_id,
        state: this.mergedState(request.appName, row.user_id, parseState(row.state)),
        events: this.events(request),
        lastUpdateTime: row.update_time,
      };
    });
  }

  async listSessions(request: ListSessionsRequest): Promise<Session[]> {
    return this.read('listSessions', () => {
      const rows = (
        request.userId === undefined
          ? this.sql('SELECT user_id, id, state, update_time FROM adkit_sessions WHERE app_name = ? ORDER BY rowid').all(request.appName)
          : this.sql('SELECT user_id, id, state, update_time FROM adkit_sessions WHERE app_name = ? AND user_id = ? ORDER BY rowid')
              .all(request.appName, request.userId)
      ) as SessionRow[];
      return rows.map((row) => ({
        id: row.id,
        appName: request.appName,
        userId: row.user_id,
        state: this.mergedState(request.appName, row.user_id, parseState(row.state)),
        events: [],
        lastUpdateTime: row.update_time,
      }));
    });
  }

  async deleteSession(request: SessionKey): Promise<void> {
    this.write('deleteSession', () => {
      const key = [request.appName, request.userId, request.sessionId];
      this.sql('DELETE FROM adkit_events WHERE app_name = ? AND user_id = ? AND session_id = ?').run(...key);
      this.sql('DELETE FROM adkit_sessions WHERE app_name = ? AND user_id = ? AND id = ?').run(...key);
    });
  }

  async appendEvent(session: Session, event: Event): Promise<Event> {
    this.open();
    if (event?.partial) return event;
    const context = `Cannot append event "${String(event?.id)}" to session "${session.id}"`;
    checkEventShape(event, context);
    const stored = withoutTempState(event);
    const encoded = jsonOrThrow(context, () => encodeEvent(stored));
    const scoped = splitStateDelta(stored.actions.stateDelta);
    this.write('appendEvent', () => {
      const key = { appName: session.appName, userId: session.userId, sessionId: session.id };
      const row = this.sessionRow(key);
      if (!row)
        throw new SessionError(
          `Cannot append to session "${session.id}" of app "${session.appName}": it does not exist (deleted, or never created with createSession).`,
        );
      this.mergeSharedState(session.appName, session.userId, scoped);
      this.sql('UPDATE adkit_sessions SET state = ?, update_time = ? WHERE app_name = ? AND user_id = ? AND id = ?').run(
        JSON.stringify({ ...parseState(row.state), ...scoped.session }),
        event.timestamp,
        session.appName,
        session.userId,
        session.id,
      );
      this.sql(
        'INSERT INTO adkit_events (app_name, user_id, session_id, id, timestamp, format, data) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(session.appName, session.userId, session.id, event.id, event.timestamp, encoded.format, encoded.data);
    });
    applyEventToSession(session, event);
    return event;
  }

  /** Closes the database. Later calls fail with a clear error; closing twice is fine. */
  async close(): Promise<void> {
    this.statements.clear();
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
    return this.guard(operation, () => db.transaction(work).immediate());
  }

  /** Runs `work` in one read transaction, so it sees a single consistent snapshot. */
  private read<T>(operation: string, work: () => T): T {
    const db = this.open();
    return this.guard(operation, () => db.transaction(work).deferred());
  }

  private guard<T>(operation: string, work: () => T): T {
    try {
      return work();
    } catch (cause) {
      if (isAdkitError(cause)) throw cause;
      const message = (cause as Error).message;
      const hint = (cause as { code?: string }).code?.startsWith('SQLITE_BUSY')
        ? ' Another connection held the write lock longer than busyTimeoutMs; retry, or raise busyTimeoutMs.'
        : '';
      throw new SessionError(`SqliteSessionService.${operation} failed on ${this.location}: ${message}.${hint}`, { cause });
    }
  }

  private sessionRow(key: SessionKey): SessionRow | undefined {
    return this.sql('SELECT user_id, id, state, update_time FROM adkit_sessions WHERE app_name = ? AND user_id = ? AND id = ?')
      .get(key.appName, key.userId, key.sessionId) as SessionRow | undefined;
  }

  private events(request: GetSessionRequest): Event[] {
    const { numRecentEvents: recent, afterTimestamp: after } = request;
    // Same results as InMemorySessionService: filter by time, then keep the newest N (N <= 0: none).
    if (recent !== undefined && !(recent > 0)) return [];
    if (after !== undefined && Number.isNaN(after)) return [];
    const limit = recent === undefined || !Number.isFinite(recent) || Math.trunc(recent) === 0 ? -1 : Math.trunc(recent);
    const rows = this.sql(
        `SELECT seq, id, format, data FROM adkit_events
         WHERE app_name = ? AND user_id = ? AND session_id = ? AND (? IS NULL OR timestamp >= ?)
         ORDER BY seq DESC LIMIT ?`,
      )
      .all(request.appName, request.userId, request.sessionId, after ?? null, after ?? null, limit) as EventRow[];
    return rows.reverse().map((row) => decodeEvent(row, `Event "${row.id}" (row ${row.seq}) of session "${request.sessionId}"`));
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

/** Runs a JSON encoder, turning its TypeError into a SessionError that says what to store instead. */
function jsonOrThrow<T>(context: string, encode: () => T): T {
  try {
    return encode();
  } catch (cause) {
    throw new SessionError(`${context}: ${(cause as Error).message}. Session data must be plain JSON.`, { cause });
  }
}

function parseState(json: string | undefined): State {
  return json === undefined ? {} : (JSON.parse(json) as State);
}

/** The fields storage relies on; the type says so, but callers may come from plain JavaScript. */
function checkEventShape(event: Event, context: string): void {
  const problem =
    typeof event !== 'object' || event === null
      ? 'the event is not an object'
      : typeof event.id !== 'string'
        ? 'event.id must be a string'
        : typeof event.timestamp !== 'number' || !Number.isFinite(event.timestamp)
          ? 'event.timestamp must be a finite number of milliseconds since the epoch'
          : typeof event.actions !== 'object' || event.actions === null || typeof event.actions.stateDelta !== 'object' || event.actions.stateDelta === null
            ? 'event.actions.stateDelta must be an object (build events with createEvent)'
            : undefined;
  if (problem) throw new SessionError(`${context}: ${problem}.`);
}
