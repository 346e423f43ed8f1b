// PostgresSessionService: the shared session suite on a real server (a fresh schema per test),
// then what only Postgres has. Bad input tried: missing, doubled or wrong options (schema names
// with quotes and dots, negative cache sizes); an unreachable server; NUL characters in ids; data
// JSON cannot keep and values nested 10,000 deep; a 5 MB event; two services (two pools, as two
// processes would have) writing one session; rows rewritten behind the cache's back; reads racing
// appends in one service; 20 concurrent writers of one user's `user:` state.
import { Pool } from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createEvent, type Event, type EventInit, type Session } from '@adkit/flow';
import { fullEvent, runSessionServiceSuite } from '../../flow/test/support/sessionServiceSuite.js';
import { PostgresSessionService, type PostgresSessionServiceOptions } from '../src/postgresSessionService.js';
import { freshSchema, PG_URL, schemaName, testPool } from './support/pgTest.js';

const event = (init: Partial<EventInit> = {}): Event => createEvent({ invocationId: 'inv', author: 'user', ...init });
const key = (session: Session) => ({ appName: session.appName, userId: session.userId, sessionId: session.id });
const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (thrown: unknown) => thrown);

describe.skipIf(!PG_URL)('PostgresSessionService', () => {
  runSessionServiceSuite('PostgresSessionService', async () => {
    const schema = schemaName();
    const service = new PostgresSessionService({ pool: testPool(), schema });
    return {
      service,
      close: async () => {
        await service.close();
        await testPool().query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      },
    };
  });

  /** A service on the shared pool in a schema dropped after the test. */
  function open(options: Partial<PostgresSessionServiceOptions> = {}, schema = freshSchema()) {
    const service = new PostgresSessionService({ pool: testPool(), schema, ...options });
    onTestFinished(() => service.close());
    return service;
  }

  describe('options and connections', () => {
    it('refuses missing, doubled or wrong options with a ConfigError naming the fix', () => {
      const pool = testPool();
      const bad: [unknown, string][] = [
        [undefined, "PostgresSessionService needs exactly one of pool or connectionString: pass { pool } (a pg.Pool you own) or { connectionString: 'postgres://user@host:5432/db' }."],
        [{}, "PostgresSessionService needs exactly one of pool or connectionString: pass { pool } (a pg.Pool you own) or { connectionString: 'postgres://user@host:5432/db' }."],
        [{ pool, connectionString: PG_URL }, "PostgresSessionService needs exactly one of pool or connectionString: pass { pool } (a pg.Pool you own) or { connectionString: 'postgres://user@host:5432/db' }."],
        [{ connectionString: '' }, "PostgresSessionService: connectionString must be a non-empty string such as 'postgres://user@host:5432/db'."],
        [{ pool: {} }, 'PostgresSessionService: pool must be a pg.Pool (new Pool({ connectionString }) from the pg package).'],
        [{ pool, schema: 'a"; DROP TABLE x; --' }, 'PostgresSessionService: schema must be a plain identifier (letters, digits and _, not starting with a digit, at most 63 characters); got "a\\"; DROP TABLE x; --".'],
        [{ pool, schema: 'public.x' }, 'PostgresSessionService: schema must be a plain identifier (letters, digits and _, not starting with a digit, at most 63 characters); got "public.x".'],
        [{ pool, cachedSessions: -1 }, 'PostgresSessionService: cachedSessions must be a whole number, 0 or more; got -1.'],
      ];
      for (const [options, message] of bad)
        expect(() => new PostgresSessionService(options as PostgresSessionServiceOptions)).toThrow(
          expect.objectContaining({ name: 'ConfigError', code: 'INVALID_CONFIG', message }),
        );
    });

    it('with a connectionString it owns its pool: close() ends it, and every later call fails clearly', async () => {
      const schema = freshSchema();
      const service = new PostgresSessionService({ connectionString: PG_URL!, schema });
      const session = await service.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      await service.close();
      await service.close();
      const message = `This PostgresSessionService (schema "${schema}") is closed; create a new PostgresSessionService to use the database again.`;
      for (const call of [
        service.createSession({ appName: 'shop', userId: 'ada' }),
        service.getSession(key(session)),
        service.listSessions({ appName: 'shop' }),
        service.deleteSession(key(session)),
        service.appendEvent(session, event()),
      ])
        expect(await rejection(call)).toMatchObject({ code: 'SESSION_ERROR', message });
      expect((await open({}, schema).getSession(key(session)))?.id).toBe('s');
    });

    it('with a pool it leaves the pool open on close()', async () => {
      const pool = new Pool({ connectionString: PG_URL, max: 2 });
      onTestFinished(() => pool.end());
      const service = new PostgresSessionService({ pool, schema: freshSchema() });
      await service.createSession({ appName: 'shop', userId: 'ada' });
      await service.close();
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    });

    it('an unreachable server is a SessionError naming the operation, and the service works once it is reachable', async () => {
      const service = new PostgresSessionService({ connectionString: 'postgres://nobody@127.0.0.1:1/none', schema: 'x' });
      onTestFinished(() => service.close());
      const error = await rejection(service.createSession({ appName: 'shop', userId: 'ada' }));
      expect(error).toMatchObject({ code: 'SESSION_ERROR' });
      expect((error as Error).message).toMatch(/^PostgresSessionService\.createSession failed \(schema "x"\): connect ECONNREFUSED 127\.0\.0\.1:1\.$/);
    });
  });

  describe('migrations', () => {
    it('creates the schema and its tables on first use, once, and records version 1', async () => {
      const schema = freshSchema();
      const [one, two] = [open({}, schema), open({}, schema)];
      // Two services starting together: the advisory lock lets exactly one migrate.
      await Promise.all([one.createSession({ appName: 'a', userId: 'u', sessionId: 'one' }), two.createSession({ appName: 'a', userId: 'u', sessionId: 'two' })]);
      const tables = await testPool().query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [schema]);
      expect(tables.rows.map((r) => r.table_name)).toEqual(['adkit_app_states', 'adkit_events', 'adkit_schema', 'adkit_sessions', 'adkit_user_states']);
      expect((await testPool().query(`SELECT version FROM "${schema}".adkit_schema`)).rows).toEqual([{ version: 1 }]);
      expect((await one.listSessions({ appName: 'a' })).map((s) => s.id).sort()).toEqual(['one', 'two']);
    });

    it('refuses a schema written by a newer release, and leaves it untouched', async () => {
      const schema = freshSchema();
      await open({}, schema).createSession({ appName: 'a', userId: 'u', sessionId: 's' });
      await testPool().query(`UPDATE "${schema}".adkit_schema SET version = 9`);
      const error = await rejection(open({}, schema).getSession({ appName: 'a', userId: 'u', sessionId: 's' }));
      expect(error).toMatchObject({
        code: 'SESSION_ERROR',
        message: `Schema "${schema}" has session schema version 9, but this @adkit/session-postgres knows versions up to 1: it was written by a newer release. Upgrade @adkit/session-postgres to use it.`,
      });
      expect((await testPool().query(`SELECT count(*)::int AS n FROM "${schema}".adkit_sessions`)).rows).toEqual([{ n: 1 }]);
    });

    it('a schema whose tables collide with ours is refused, nothing changed', async () => {
      const schema = freshSchema();
      await testPool().query(`CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".adkit_sessions (whatever text)`);
      const error = await rejection(open({}, schema).createSession({ appName: 'a', userId: 'u' }));
      expect((error as Error).message).toBe(
        `Could not migrate schema "${schema}" to session schema version 1 (sessions, events, app and user state, versions): relation "adkit_sessions" already exists. Nothing was changed.`,
      );
      const tables = await testPool().query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema]);
      expect(tables.rows).toEqual([{ table_name: 'adkit_sessions' }]);
    });
  });

  describe('two services on one schema (as two processes would be)', () => {
    it('each sees the other\'s appends; a session loaded before them is refused, never interleaved', async () => {
      const schema = freshSchema();
      const pool = new Pool({ connectionString: PG_URL, max: 2 });
      onTestFinished(() => pool.end());
      const one = open({}, schema);
      const two = new PostgresSessionService({ pool, schema });
      const created = await one.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      const seenByTwo = (await two.getSession(key(created)))!;
      await one.appendEvent(created, event({ id: 'by-one', actions: { stateDelta: { n: 1 } } }));
      await expect(two.appendEvent(seenByTwo, event({ id: 'by-two' }))).rejects.toMatchObject({ code: 'SESSION_CONFLICT' });
      const reloaded = (await two.getSession(key(created)))!;
      await two.appendEvent(reloaded, event({ id: 'by-two', actions: { stateDelta: { n: 2 } } }));
      for (const reader of [one, two])
        expect(await reader.getSession(key(created))).toMatchObject({ events: [{ id: 'by-one' }, { id: 'by-two' }], state: { n: 2 }, version: reloaded.version });
    });

    it('twenty sessions of one user writing user: and app: keys at once lose none of them', async () => {
      const schema = freshSchema();
      const service = open({}, schema);
      const sessions = await Promise.all(Array.from({ length: 20 }, (_, i) => service.createSession({ appName: 'shop', userId: 'ada', sessionId: `s${i}` })));
      await Promise.all(sessions.map((s, i) => service.appendEvent(s, event({ actions: { stateDelta: { [`user:k${i}`]: i, [`app:k${i}`]: i, own: i } } }))));
      const state = (await open({}, schema).getSession({ appName: 'shop', userId: 'ada', sessionId: 's0' }))!.state;
      for (let i = 0; i < 20; i++) expect([state[`user:k${i}`], state[`app:k${i}`]]).toEqual([i, i]);
      expect(state.own).toBe(0);
    });
  });

  describe('decoded-event cache (issue #15: a turn loads only rows newer than what the service holds)', () => {
    const said = (id: string, text: string) => event({ id, content: { role: 'user', parts: [{ text }] } });
    const texts = (session: Session | undefined) => session!.events.map((e) => e.content?.parts?.[0]?.text);
    const tamper = (schema: string, id: string, text: string) =>
      testPool().query(`UPDATE "${schema}".adkit_events SET data = replace(data, '"text":"original"', $2) WHERE id = $1`, [id, `"text":"${text}"`]);

    it('reads an old row once: later reads load only the rows appended since, by any service', async () => {
      const schema = freshSchema();
      const reader = open({}, schema);
      const writer = open({}, schema);
      const session = await writer.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      await writer.appendEvent(session, said('e1', 'original'));
      expect(texts(await reader.getSession(key(session)))).toEqual(['original']);
      await tamper(schema, 'e1', 'rewritten');
      await writer.appendEvent(session, said('e2', 'second'));
      expect(texts(await reader.getSession(key(session)))).toEqual(['original', 'second']);
      expect(texts(await open({}, schema).getSession(key(session)))).toEqual(['rewritten', 'second']);
      expect(texts(await open({ cachedSessions: 0 }, schema).getSession(key(session)))).toEqual(['rewritten', 'second']);
    });

    it('reads racing appends in one service never duplicate or lose an event', async () => {
      const service = open();
      const session = await service.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      const seen: string[][] = [];
      let writing = true;
      const reads = (async () => {
        while (writing) seen.push((await service.getSession(key(session)))!.events.map((e) => e.id));
      })();
      for (let i = 0; i < 40; i++) await service.appendEvent(session, event({ id: `e${i}` }));
      writing = false;
      await reads;
      const all = Array.from({ length: 40 }, (_, i) => `e${i}`);
      expect(seen.length).toBeGreaterThan(0);
      for (const ids of seen) expect(ids).toEqual(all.slice(0, ids.length));
      expect((await service.getSession(key(session)))!.events.map((e) => e.id)).toEqual(all);
    });

    it('a session deleted and created again by another service is read afresh', async () => {
      const schema = freshSchema();
      const reader = open({}, schema);
      const other = open({}, schema);
      const old = await other.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      await other.appendEvent(old, said('old-1', 'old'));
      expect((await reader.getSession(key(old)))!.events).toHaveLength(1);
      await other.deleteSession(key(old));
      const fresh = await other.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      for (const id of ['new-1', 'new-2']) await other.appendEvent(fresh, said(id, 'new'));
      expect((await reader.getSession(key(fresh)))!.events.map((e) => e.id)).toEqual(['new-1', 'new-2']);
    });
  });

  describe('data', () => {
    it('refuses NUL characters in ids with a clear error; reads of such ids find nothing', async () => {
      const service = open();
      await expect(service.createSession({ appName: 'shop', userId: 'ada', sessionId: 'a\u0000b' })).rejects.toThrow(
        'Cannot create session "a\\u0000b": app names, user ids and session ids cannot contain the NUL character (\\u0000), which PostgreSQL text cannot hold.',
      );
      expect(await service.getSession({ appName: 'shop', userId: 'a\u0000', sessionId: 's' })).toBeUndefined();
      await service.deleteSession({ appName: 'shop\u0000', userId: 'ada', sessionId: 's' });
      expect(await service.listSessions({ appName: 'shop' })).toEqual([]);
    });

    it('keeps NUL characters and every other string inside events and state, read back by a fresh service', async () => {
      const schema = freshSchema();
      const service = open({}, schema);
      const session = await service.createSession({ appName: 'shop', userId: 'ada', state: { nul: 'a\u0000b', 'user:nul': '\u0000' } });
      await service.appendEvent(session, fullEvent());
      const stored = (await open({}, schema).getSession(key(session)))!;
      expect(stored.state).toMatchObject({ nul: 'a\u0000b', 'user:nul': '\u0000' });
      expect(stored.events[0]!.content!.parts![1]!.text).toBe('Grüße 👋 "quoted" \\ back\nslash\u0000nul');
    });

    it('stores a 5 MB event and reads it back', async () => {
      const service = open();
      const session = await service.createSession({ appName: 'shop', userId: 'ada' });
      const big = 'x'.repeat(5_000_000);
      await service.appendEvent(session, event({ id: 'big', content: { role: 'user', parts: [{ text: big }] } }));
      const stored = (await service.getSession(key(session)))!;
      expect(stored.events[0]!.content!.parts![0]!.text).toHaveLength(5_000_000);
    });

    it('refuses data JSON cannot keep and values nested 10,000 deep, storing nothing', async () => {
      const service = open();
      const session = await service.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      let deep: Record<string, unknown> = {};
      for (let i = 0; i < 10_000; i++) deep = { a: deep };
      await expect(service.appendEvent(session, event({ id: 'deep', actions: { stateDelta: { deep } } }))).rejects.toThrow(/nests deeper than 108 levels; flatten the data\. Session data must be plain JSON\.$/);
      await expect(service.appendEvent(session, event({ id: 'date', actions: { stateDelta: { when: new Date(0) } } }))).rejects.toThrow(
        'Cannot append event "date" to session "s": event.actions.stateDelta.when is a Date; store date.toISOString() or date.getTime(). Session data must be plain JSON.',
      );
      await expect(service.createSession({ appName: 'shop', userId: 'ada', sessionId: 't', state: { big: 10n } })).rejects.toThrow(
        'Cannot create session "t": state.big is a BigInt (10n); store it as a number or a string. Session data must be plain JSON.',
      );
      expect(await service.getSession(key(session))).toMatchObject({ events: [], state: {} });
      expect((await service.listSessions({ appName: 'shop' })).map((s) => s.id)).toEqual(['s']);
    });

    it('refuses an event without a usable id, timestamp or actions', async () => {
      const service = open();
      const session = await service.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      await expect(service.appendEvent(session, { ...event({ id: 'x' }), timestamp: Number.NaN })).rejects.toThrow(
        'Cannot append event "x" to session "s": event.timestamp must be a finite number of milliseconds since the epoch.',
      );
      await expect(service.appendEvent(session, { ...event({ id: 'y' }), actions: undefined } as unknown as Event)).rejects.toThrow(
        'Cannot append event "y" to session "s": event.actions.stateDelta must be an object (build events with createEvent).',
      );
    });
  });
});
