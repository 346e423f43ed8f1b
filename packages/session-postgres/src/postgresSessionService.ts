import { Pool, type PoolClient, type QueryResultRow } from 'pg';
import { ConfigError, isAdkitError, newId, SessionError, type CreateSessionRequest, type Event, type GetSessionRequest, type ListSessionsRequest, type Session, type SessionKey, type SessionService } from '@adkit/flow';
import { applyEventToSession, checkSessionVersion, decodeStoredEvent, deepFreeze, mergeScopedState, prepareStoredEvent, eventQuery, selectEvents, SessionEventCache, splitStateDelta, storedStateText } from '@adkit/flow/store';
import { MIGRATIONS, migrate } from './migrations.js';
import { sessionStatements, type Statement, type Statements } from './statements.js';
import { transaction } from './transaction.js';

/** Options of `PostgresSessionService`: a `pool` you own, or a `connectionString` for a pool it owns. */
export interface PostgresSessionServiceOptions {
  /** A `pg` pool to run on; `close()` leaves it open (it is yours). */
  pool?: Pool;
  /** `postgres://user:password@host:port/database`: the service makes its own pool and ends it on `close()`. */
  connectionString?: string;
  /** The schema holding the `adkit_` tables, created and migrated on first use. Default `public`. */
  schema?: string;
  /**
   * How many sessions' decoded events to keep between calls, least recently used first out. A
   * cached session loads only the rows written since (by any process), so a turn costs the same
   * at 10 events as at 5,000. 0 keeps nothing: every read loads the whole session. Default 256.
   */
  cachedSessions?: number;
}

type State = Record<string, unknown>;

interface SessionRow {
  user_id: string;
  id: string;
  state: string;
  update_time: number;
  version: string;
  incarnation: string;
}

/** `getSession`'s row: the session, the app and user state, and the newer events as arrays. */
interface SessionReadRow extends SessionRow {
  app_state: string | null;
  user_state: string | null;
  versions: string[] | null;
  ids: string[] | null;
  formats: number[] | null;
  datas: string[] | null;
}

/** What the cache held for a session when a read started. */
interface Held {
  incarnation: number;
  version: number;
  events: Event[];
  count: number;
}

interface EventRow {
  version: string;
  id: string;
  format: number;
  data: string;
}

const STORE = '@adkit/session-postgres';

/**
 * Sessions in PostgreSQL, for runners on many machines sharing one store, with the in-memory
 * service's semantics (TC-13: `app:` and `user:` state shared, `temp:` keys and partial events
 * never stored). Each write is atomic; `app:` and `user:` state merge under row locks, so
 * concurrent writers never lose each other's keys. Every session carries a version, and
 * `appendEvent` through a stale session fails with `SESSION_CONFLICT` and stores nothing, so two
 * runners never interleave one history. Tables are created and migrated on first use. Recently
 * used sessions stay decoded in memory (`cachedSessions`): a read loads only newer rows.
 */
export class PostgresSessionService implements SessionService {
  private readonly pool: Pool;
  private readonly ownsPool: boolean;
  private readonly schema: string;
  private readonly sql: Statements;
  private readonly cache: SessionEventCache;
  private ready: Promise<void> | undefined;
  private closed = false;

  constructor(options: PostgresSessionServiceOptions) {
    const { pool, connectionString } = options ?? {};
    if ((pool === undefined) === (connectionString === undefined))
      throw new ConfigError(
        "PostgresSessionService needs exactly one of pool or connectionString: pass { pool } (a pg.Pool you own) or { connectionString: 'postgres://user@host:5432/db' }.",
      );
    if (connectionString !== undefined && (typeof connectionString !== 'string' || connectionString === ''))
      throw new ConfigError("PostgresSessionService: connectionString must be a non-empty string such as 'postgres://user@host:5432/db'.");
    if (pool !== undefined && (typeof pool !== 'object' || pool === null || typeof (pool as Partial<Pool>).connect !== 'function'))
      throw new ConfigError('PostgresSessionService: pool must be a pg.Pool (new Pool({ connectionString }) from the pg package).');
    const schema = options.schema ?? 'public';
    if (typeof schema !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema))
      throw new ConfigError(
        `PostgresSessionService: schema must be a plain identifier (letters, digits and _, not starting with a digit, at most 63 characters); got ${JSON.stringify(schema)}.`,
      );
    const cachedSessions = options.cachedSessions ?? 256;
    if (!Number.isInteger(cachedSessions) || cachedSessions < 0)
      throw new ConfigError(`PostgresSessionService: cachedSessions must be a whole number, 0 or more; got ${String(cachedSessions)}.`);
    this.schema = schema;
    this.sql = sessionStatements(schema);
    this.cache = new SessionEventCache(cachedSessions);
    this.ownsPool = pool === undefined;
    this.pool = pool ?? new Pool({ connectionString });
    // An idle connection that breaks (a server restart) must not crash the process; the next query reports it.
    if (this.ownsPool) this.pool.on('error', () => undefined);
  }

  async createSession(request: CreateSessionRequest): Promise<Session> {
    const id = request.sessionId ?? newId();
    const key = { appName: request.appName, userId: request.userId, sessionId: id };
    const scoped = splitStateDelta(request.state);
    storedStateText(mergeScopedState(scoped), id);
    if (hasNul(key)) throw new SessionError(`Cannot create session "${id.replaceAll('\u0000', '\\u0000')}": ${NUL_PROBLEM}`);
    const sessionState = JSON.stringify(scoped.session);
    const now = Date.now();
    const session = await this.run('createSession', () =>
      transaction(this.pool, async (client) => {
        const created = await query<{ version: string }>(client, this.sql.createSession, [...keyValues(key), sessionState, now]);
        if (created.length === 0)
          throw new SessionError(
            `Session "${id}" already exists for app "${request.appName}" and user "${request.userId}"; pass another sessionId or omit it.`,
          );
        const shared = await this.mergeSharedState(client, request.appName, request.userId, scoped);
        return {
          id,
          appName: request.appName,
          userId: request.userId,
          state: mergeScopedState({ ...shared, session: parseState(sessionState) }),
          events: [],
          lastUpdateTime: now,
          version: Number(created[0]!.version),
        };
      }),
    );
    this.cache.set(cacheKey(key), { incarnation: session.version, version: session.version, events: [] });
    return session;
  }

  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    if (hasNul(request)) return this.run('getSession', async () => undefined);
    return this.run('getSession', async () => {
      // What this service holds for the session now: the read brings only the events after it.
      const peeked = this.cache.peek(cacheKey(request));
      const held = peeked && { incarnation: peeked.incarnation, version: peeked.version, events: peeked.events, count: peeked.events.length };
      const filtered = request.numRecentEvents !== undefined || request.afterTimestamp !== undefined;
      const [row] = await query<SessionReadRow>(this.pool, this.sql.getSession, [...keyValues(request), held?.version ?? -1, !(filtered && !held)]);
      if (!row) return undefined;
      const session = toSession(request.appName, row, parseState(row.app_state), parseState(row.user_state));
      session.events = await this.events(request, row, held);
      return session;
    });
  }

  async listSessions(request: ListSessionsRequest): Promise<Session[]> {
    return this.run('listSessions', async () => {
      const [rows, [app]] = await Promise.all([
        query<SessionRow & { user_state: string | null }>(this.pool, this.sql.listSessions, [request.appName, request.userId ?? null]),
        query<{ state: string }>(this.pool, this.sql.appState, [request.appName]),
      ]);
      const appState = parseState(app?.state);
      return rows.map((row) => toSession(request.appName, row, appState, parseState(row.user_state)));
    });
  }

  async deleteSession(request: SessionKey): Promise<void> {
    if (hasNul(request)) return this.run('deleteSession', async () => undefined);
    await this.run('deleteSession', () => query(this.pool, this.sql.deleteSession, keyValues(request)));
    this.cache.delete(cacheKey(request));
  }

  async appendEvent(session: Session, event: Event): Promise<Event> {
    this.open();
    if (event?.partial) return event;
    const { stored, row: encoded } = prepareStoredEvent(event, session.id);
    const scoped = splitStateDelta(stored.actions.stateDelta);
    const key = { appName: session.appName, userId: session.userId, sessionId: session.id };
    const missing = () =>
      new SessionError(
        `Cannot append to session "${session.id}" of app "${session.appName}": it does not exist (deleted, or never created with createSession).`,
      );
    if (hasNul(key)) throw missing();
    const eventValues = [event.timestamp, event.id, encoded.format, encoded.data];
    const expected = session.version ?? null;
    const sharedOrSession = [scoped.app, scoped.user, scoped.session].some((scope) => Object.keys(scope).length > 0);

    const written = await this.run('appendEvent', async () => {
      if (!sharedOrSession) {
        // The common case (a model turn, a tool answer): one statement, atomic on its own.
        const [row] = await query<{ version: string; incarnation: string }>(this.pool, this.sql.append, [
          ...keyValues(key),
          expected,
          null,
          ...eventValues,
        ]);
        if (row) return { from: expected, version: Number(row.version), incarnation: Number(row.incarnation) };
        const [current] = await query<{ version: string }>(this.pool, this.sql.sessionVersion, keyValues(key));
        if (!current) throw missing();
        checkSessionVersion(session, Number(current.version));
        throw new SessionError(`Cannot append event "${event.id}" to session "${session.id}": the session changed while appending; load it again and retry.`);
      }
      // State to merge: lock the session row first, then the app's and the user's (always in
      // this order, so concurrent appends cannot deadlock), merge, and append.
      return transaction(this.pool, async (client) => {
        const [locked] = await query<{ state: string; version: string; incarnation: string }>(client, this.sql.lockSession, keyValues(key));
        if (!locked) throw missing();
        checkSessionVersion(session, Number(locked.version));
        await this.mergeSharedState(client, session.appName, session.userId, scoped);
        const state = Object.keys(scoped.session).length > 0 ? JSON.stringify({ ...parseState(locked.state), ...scoped.session }) : null;
        const [row] = await query<{ version: string; incarnation: string }>(client, this.sql.append, [
          ...keyValues(key),
          locked.version,
          state,
          ...eventValues,
        ]);
        return { from: Number(locked.version), version: Number(row!.version), incarnation: Number(row!.incarnation) };
      });
    });
    if (written.from === null) this.cache.delete(cacheKey(key));
    else this.cache.appended(cacheKey(key), written.incarnation, written.from, written.version, deepFreeze(JSON.parse(encoded.data) as Event));
    applyEventToSession(session, event, written.version);
    return event;
  }

  /**
   * Closes the service: later calls fail with a clear error; closing twice is fine. Ends the pool
   * it made from `connectionString`; a pool you passed stays open.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cache.clear();
    if (this.ownsPool) await this.pool.end();
  }

  private open(): void {
    if (this.closed)
      throw new SessionError(
        `This PostgresSessionService (schema "${this.schema}") is closed; create a new PostgresSessionService to use the database again.`,
      );
  }

  /** Migrates on first use, then runs `work`; database failures become SessionErrors naming the operation. */
  private async run<T>(operation: string, work: () => Promise<T>): Promise<T> {
    this.open();
    try {
      this.ready ??= migrate(this.pool, this.schema, MIGRATIONS).catch((error: unknown) => {
        this.ready = undefined;
        throw error;
      });
      await this.ready;
      return await work();
    } catch (cause) {
      if (isAdkitError(cause)) throw cause;
      throw new SessionError(`PostgresSessionService.${operation} failed (schema "${this.schema}"): ${(cause as Error).message}.`, { cause });
    }
  }

  /**
   * The session's events for `request`, given the row `getSession` read (with the events newer
   * than what the cache held) and what the cache held then. A session read before gets only the
   * newer rows; a filtered read of a session not held reads only what it asks for.
   */
  private async events(request: GetSessionRequest, row: SessionReadRow, held: Held | undefined): Promise<Event[]> {
    const version = Number(row.version);
    const incarnation = Number(row.incarnation);
    if (!held && (request.numRecentEvents !== undefined || request.afterTimestamp !== undefined)) return this.filteredEvents(request, version);
    const sameSession = held?.incarnation === incarnation;
    if (sameSession && held.version === version) return selectEvents(held.events.slice(0, held.count), request);
    // Complete also for a session deleted and created again since: versions come from one
    // sequence, so all of the new one's events are newer than anything held of the old one.
    const loaded = (row.versions ?? []).map((v, i) => decode({ version: v, id: row.ids![i]!, format: row.formats![i]!, data: row.datas![i]! }, request.sessionId));
    // The held events as they were when read: an append by this process may have extended them since.
    const events = sameSession ? held.events.slice(0, held.count).concat(loaded) : loaded;
    const current = this.cache.get(cacheKey(request), incarnation);
    if (!current || current.version < version) this.cache.set(cacheKey(request), { incarnation, version, events });
    return selectEvents(events, request);
  }

  /** Only the events a filtered request asks for, read directly (same results as `selectEvents`). */
  private async filteredEvents(request: GetSessionRequest, version: number): Promise<Event[]> {
    const selection = eventQuery(request);
    if (!selection) return [];
    const rows = await query<EventRow>(this.pool, this.sql.filteredEvents, [...keyValues(request), version, selection.after, selection.limit]);
    return rows.reverse().map((event) => decode(event, request.sessionId));
  }

  /** Merges the app and user scopes of a delta under row locks; returns both scopes as stored after. */
  private async mergeSharedState(client: PoolClient, appName: string, userId: string, scoped: { app: State; user: State }) {
    let app: State | undefined;
    let user: State | undefined;
    if (Object.keys(scoped.app).length > 0) {
      const [row] = await query<{ state: string }>(client, this.sql.lockAppState, [appName]);
      app = { ...parseState(row!.state), ...scoped.app };
      await query(client, this.sql.setAppState, [appName, JSON.stringify(app)]);
    }
    if (Object.keys(scoped.user).length > 0) {
      const [row] = await query<{ state: string }>(client, this.sql.lockUserState, [appName, userId]);
      user = { ...parseState(row!.state), ...scoped.user };
      await query(client, this.sql.setUserState, [appName, userId, JSON.stringify(user)]);
    }
    if (!app || !user) {
      const [row] = await query<{ app_state: string | null; user_state: string | null }>(client, this.sql.sharedState, [appName, userId]);
      app ??= parseState(row!.app_state);
      user ??= parseState(row!.user_state);
    }
    return { app, user };
  }
}

/** Runs a named statement on the pool or a client and resolves to its rows. */
async function query<R extends QueryResultRow = QueryResultRow>(
  runner: Pool | PoolClient,
  statement: Statement,
  values: unknown[],
): Promise<R[]> {
  return (await runner.query<R>({ name: statement.name, text: statement.text, values })).rows;
}

function keyValues(key: SessionKey): [string, string, string] {
  return [key.appName, key.userId, key.sessionId];
}

function cacheKey(key: SessionKey): string {
  return `${key.appName}\u0000${key.userId}\u0000${key.sessionId}`;
}

const NUL_PROBLEM = 'app names, user ids and session ids cannot contain the NUL character (\\u0000), which PostgreSQL text cannot hold.';

function hasNul(key: SessionKey): boolean {
  return key.appName.includes('\u0000') || key.userId.includes('\u0000') || key.sessionId.includes('\u0000');
}

function toSession(appName: string, row: SessionRow, app: State, user: State): Session {
  return {
    id: row.id,
    appName,
    userId: row.user_id,
    state: mergeScopedState({ app, user, session: parseState(row.state) }),
    events: [],
    lastUpdateTime: row.update_time,
    version: Number(row.version),
  };
}

function decode(row: EventRow, sessionId: string): Event {
  return decodeStoredEvent(row, `Event "${row.id}" (version ${row.version}) of session "${sessionId}"`, STORE);
}


function parseState(json: string | null | undefined): State {
  return json === undefined || json === null ? {} : (JSON.parse(json) as State);
}

