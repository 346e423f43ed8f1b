// SqliteSessionService beyond the shared suite: durability, two writers, closing. Bad input tried:
// missing or wrong options, a file that is not a database, a missing directory, data JSON cannot
// keep (dates, maps, BigInt, NaN, functions, cycles), events without id, timestamp or actions.
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createEvent, isAdkitError, type Event, type EventInit, type Session } from '@adkit/flow';
import { fullEvent, runSessionServiceSuite } from '../../flow/test/support/sessionServiceSuite.js';
import { SqliteSessionService, type SqliteSessionServiceOptions } from '../src/sqliteSessionService.js';
import { holdWriteLock } from './support/lockHolder.js';
import { tempDir } from './support/tempDir.js';

// Bad input tried: options without a path, an empty path, a bad busyTimeoutMs or cachedSessions;
// rows rewritten behind the service's back (the cache must not re-read them); two processes
// appending to one session at once; a session deleted and created again by another service; a file that is not
// a database, a directory that does not exist; state and events holding a Date, a Map, a class
// instance, a BigInt, NaN, a function, a cycle, undefined in an array; an event without a
// timestamp; a closed service; a write lock held by another thread past busyTimeoutMs.

// The shared contract, on a real file per test (WAL, removed afterwards) and in memory.
runSessionServiceSuite('SqliteSessionService on a file', async () => {
  const temp = tempDir();
  const service = new SqliteSessionService({ path: temp.file('sessions.db') });
  return {
    service,
    close: async () => {
      await service.close();
      temp.remove();
    },
  };
});

runSessionServiceSuite('SqliteSessionService in :memory:', async () => {
  const service = new SqliteSessionService({ path: ':memory:' });
  return { service, close: () => service.close() };
});

/** A temp directory for this test, removed when it ends; services opened through it are closed first. */
function scratch() {
  const temp = tempDir();
  const services: SqliteSessionService[] = [];
  onTestFinished(async () => {
    for (const service of services) await service.close();
    temp.remove();
  });
  const path = temp.file('sessions.db');
  const open = (options: Partial<SqliteSessionServiceOptions> = {}) => {
    const service = new SqliteSessionService({ path, ...options });
    services.push(service);
    return service;
  };
  return { path, file: temp.file, open };
}

interface WorkerResult {
  conflicts: number;
  error?: { code: string; message: string };
}

/** Starts one appendWorker.mjs process per writer, lets them go at once, and collects their results. */
async function runWorkers(path: string, sessionId: string, writers: string[], count: number): Promise<WorkerResult[]> {
  const worker = fileURLToPath(new URL('./support/appendWorker.mjs', import.meta.url));
  const children = writers.map((writer) => {
    const child = spawn(process.execPath, [worker, path, sessionId, writer, String(count)], { stdio: ['pipe', 'pipe', 'inherit'] });
    onTestFinished(() => void child.kill());
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    return { child, next: async () => (await lines.next()).value as string };
  });
  for (const { next } of children) expect(await next()).toBe('ready');
  for (const { child } of children) child.stdin.write('go\n');
  return Promise.all(children.map(async ({ next }) => JSON.parse(await next()) as WorkerResult));
}

const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (thrown: unknown) => thrown);
const event = (init: Partial<EventInit> = {}): Event => createEvent({ invocationId: 'inv', author: 'user', ...init });
const key = (session: Session) => ({ appName: session.appName, userId: session.userId, sessionId: session.id });

describe('SqliteSessionService', () => {
  describe('durability', () => {
    it('TC-13: a new service on the same file reads back everything identically after a restart', async () => {
      const { open } = scratch();
      const first = open();
      const ada = await first.createSession({ appName: 'shop', userId: 'ada', sessionId: 'a', state: { 'app:open': true, 'user:lang': 'fr', cart: [] } });
      await first.appendEvent(ada, fullEvent());
      await first.appendEvent(ada, event({ id: 'second', timestamp: 1_700_000_000_999, actions: { stateDelta: { cart: ['pear'], 'temp:x': 1 } } }));
      const bob = await first.createSession({ appName: 'shop', userId: 'bob' });
      await first.appendEvent(bob, event({ actions: { stateDelta: { 'app:visits': 2 } } }));
      const before = {
        ada: await first.getSession(key(ada)),
        bob: await first.getSession(key(bob)),
        list: await first.listSessions({ appName: 'shop' }),
      };
      await first.close();

      const second = open();
      expect(await second.getSession(key(ada))).toStrictEqual(before.ada);
      expect(await second.getSession(key(bob))).toStrictEqual(before.bob);
      expect(await second.listSessions({ appName: 'shop' })).toStrictEqual(before.list);
      expect(before.ada!.events.map((e) => e.id)).toEqual(['evt-full', 'second']);
      expect(before.ada!.state).toMatchObject({ cart: ['pear'], 'app:visits': 2, 'user:lang': 'fr' });
      expect(before.ada!.state).not.toHaveProperty('temp:x');

      await second.appendEvent(before.bob!, event({ id: 'after-restart' }));
      expect((await second.getSession(key(bob)))!.events.map((e) => e.id)).toHaveLength(2);
    });

    it('appendEvent is one transaction: when storing the event fails, no state change is kept', async () => {
      const { path, open } = scratch();
      const service = open();
      const session = await service.createSession({ appName: 'shop', userId: 'ada', state: { n: 0, 'app:a': 0, 'user:u': 0 } });
      const raw = new Database(path);
      raw.exec("CREATE TRIGGER refuse_events BEFORE INSERT ON adkit_events BEGIN SELECT RAISE(ABORT, 'simulated disk failure'); END");
      raw.close();

      const error = await rejection(service.appendEvent(session, event({ actions: { stateDelta: { n: 1, 'app:a': 1, 'user:u': 1 } } })));
      expect(error).toMatchObject({
        code: 'SESSION_ERROR',
        message: `SqliteSessionService.appendEvent failed on "${path}": simulated disk failure.`,
      });
      expect(session).toMatchObject({ state: { n: 0, 'app:a': 0, 'user:u': 0 }, events: [] });
      expect(await service.getSession(key(session))).toMatchObject({ state: { n: 0, 'app:a': 0, 'user:u': 0 }, events: [] });
    });

    it('puts a file database in WAL mode', async () => {
      const { path, open } = scratch();
      open();
      const raw = new Database(path, { readonly: true });
      onTestFinished(() => void raw.close());
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    });

    it('keeps each :memory: service private', async () => {
      const a = new SqliteSessionService({ path: ':memory:' });
      const b = new SqliteSessionService({ path: ':memory:' });
      onTestFinished(async () => {
        await a.close();
        await b.close();
      });
      await a.createSession({ appName: 'app', userId: 'u', sessionId: 's', state: { 'app:x': 1 } });
      expect(await b.getSession({ appName: 'app', userId: 'u', sessionId: 's' })).toBeUndefined();
      expect((await b.createSession({ appName: 'app', userId: 'u' })).state).toEqual({});
    });
  });

  describe('two services on one file', () => {
    it('each service sees the other\'s appends; a session loaded before them is refused, never interleaved', async () => {
      const { open } = scratch();
      const one = open();
      const two = open();
      const created = await one.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      const seenByTwo = (await two.getSession(key(created)))!;
      await one.appendEvent(created, event({ id: 'by-one', actions: { stateDelta: { n: 1, 'app:last': 'one' } } }));

      await expect(two.appendEvent(seenByTwo, event({ id: 'by-two' }))).rejects.toMatchObject({ code: 'SESSION_CONFLICT' });
      const reloaded = (await two.getSession(key(created)))!;
      expect(reloaded.events.map((e) => e.id)).toEqual(['by-one']);
      await two.appendEvent(reloaded, event({ id: 'by-two', actions: { stateDelta: { n: 2 } } }));
      for (const reader of [one, two]) {
        const stored = (await reader.getSession(key(created)))!;
        expect(stored.events.map((e) => e.id)).toEqual(['by-one', 'by-two']);
        expect(stored.state).toEqual({ n: 2, 'app:last': 'one' });
        expect(stored.version).toBe(reloaded.version);
      }
    });

    it('two processes appending to one session at once: exactly one conflict, one event stored', { timeout: 30_000 }, async () => {
      const { path, open } = scratch();
      await open().createSession({ appName: 'shop', userId: 'ada', sessionId: 'race' });
      const results = await runWorkers(path, 'race', ['A', 'B'], 1);
      expect(results.map((r) => r.conflicts).sort()).toEqual([0, 1]);
      const loser = results.find((r) => r.conflicts === 1)!;
      expect(loser.error).toMatchObject({ code: 'SESSION_CONFLICT' });
      expect(loser.error!.message).toMatch(/another runner or process appended to it first/);
      const stored = (await open().getSession({ appName: 'shop', userId: 'ada', sessionId: 'race' }))!;
      const winner = results[0]!.conflicts === 0 ? 'A' : 'B';
      expect(stored.events.map((e) => e.id)).toEqual([`${winner}-0`]);
      expect(stored.state).toEqual({ [`last-${winner}`]: 0, 'app:last': `${winner}-0` });
    });

    it('two processes appending 30 events each, retrying on conflict: all 60 stored once, each writer in order', { timeout: 30_000 }, async () => {
      const { path, open } = scratch();
      await open().createSession({ appName: 'shop', userId: 'ada', sessionId: 'busy' });
      const results = await runWorkers(path, 'busy', ['A', 'B'], 30);
      const stored = (await open().getSession({ appName: 'shop', userId: 'ada', sessionId: 'busy' }))!;
      const ids = stored.events.map((e) => e.id);
      expect(ids).toHaveLength(60);
      expect(new Set(ids).size).toBe(60);
      for (const writer of ['A', 'B'])
        expect(ids.filter((id) => id.startsWith(`${writer}-`))).toEqual(Array.from({ length: 30 }, (_, i) => `${writer}-${i}`));
      expect(stored.state).toEqual({ 'last-A': 29, 'last-B': 29, 'app:last': ids.at(-1) });
      // Each conflict cost a retry, never a lost or doubled event.
      expect(results.every((r) => r.error === undefined)).toBe(true);
    });

    it('a write waits for another connection to release its lock, then goes through', async () => {
      const { path, open } = scratch();
      const service = open({ busyTimeoutMs: 5000 });
      const session = await service.createSession({ appName: 'shop', userId: 'ada' });
      const lock = await holdWriteLock(path, 150);
      const started = Date.now();
      await service.appendEvent(session, event({ id: 'waited' }));
      expect(Date.now() - started).toBeGreaterThanOrEqual(100);
      await lock.released;
      expect((await service.getSession(key(session)))!.events.map((e) => e.id)).toEqual(['waited']);
    });

    it('a write that cannot get the lock within busyTimeoutMs fails clearly and changes nothing', async () => {
      const { path, open } = scratch();
      const service = open({ busyTimeoutMs: 0 });
      const session = await service.createSession({ appName: 'shop', userId: 'ada', state: { n: 0 } });
      const lock = await holdWriteLock(path, 300);
      const error = await rejection(service.appendEvent(session, event({ actions: { stateDelta: { n: 1 } } })));
      await lock.released;

      expect(isAdkitError(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'SESSION_ERROR',
        message: `SqliteSessionService.appendEvent failed on "${path}": database is locked. Another connection held the write lock longer than busyTimeoutMs; retry, or raise busyTimeoutMs.`,
      });
      expect(session).toMatchObject({ state: { n: 0 }, events: [] });
      expect(await service.getSession(key(session))).toMatchObject({ state: { n: 0 }, events: [] });
      await service.appendEvent(session, event({ id: 'retried' }));
      expect(session.events.map((e) => e.id)).toEqual(['retried']);
    });
  });

  describe('decoded-event cache (issue #15: a turn loads only rows newer than what the service holds)', () => {
    /** Rewrites the stored text of an event behind the services' backs. */
    const tamper = (path: string, id: string, text: string) => {
      const raw = new Database(path);
      raw.prepare("UPDATE adkit_events SET data = json_set(data, '$.content.parts[0].text', ?) WHERE id = ?").run(text, id);
      raw.close();
    };
    const texts = (session: Session | undefined) => session!.events.map((e) => e.content?.parts?.[0]?.text);
    const said = (id: string, text: string) => event({ id, content: { role: 'user', parts: [{ text }] } });

    it('reads an old row once: later reads load only the rows appended since, by any service', async () => {
      const { path, open } = scratch();
      const reader = open();
      const writer = open();
      const session = await writer.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      await writer.appendEvent(session, said('e1', 'original'));
      expect(texts(await reader.getSession(key(session)))).toEqual(['original']);

      tamper(path, 'e1', 'rewritten');
      await writer.appendEvent(session, said('e2', 'second'));
      // The reader held e1 and loaded only e2; a service that held nothing reads the row as it is now.
      expect(texts(await reader.getSession(key(session)))).toEqual(['original', 'second']);
      expect(texts(await open().getSession(key(session)))).toEqual(['rewritten', 'second']);
    });

    it('cachedSessions: 0 decodes every row on every read', async () => {
      const { path, open } = scratch();
      const service = open({ cachedSessions: 0 });
      const session = await service.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      await service.appendEvent(session, said('e1', 'original'));
      expect(texts(await service.getSession(key(session)))).toEqual(['original']);
      tamper(path, 'e1', 'rewritten');
      expect(texts(await service.getSession(key(session)))).toEqual(['rewritten']);
    });

    it('forgets the least recently used session past cachedSessions', async () => {
      const { path, open } = scratch();
      const service = open({ cachedSessions: 1 });
      const a = await service.createSession({ appName: 'shop', userId: 'ada', sessionId: 'a' });
      const b = await service.createSession({ appName: 'shop', userId: 'ada', sessionId: 'b' });
      await service.appendEvent(a, said('a1', 'a original'));
      await service.appendEvent(b, said('b1', 'b original'));
      await service.getSession(key(a));
      tamper(path, 'a1', 'a rewritten');
      expect(texts(await service.getSession(key(a)))).toEqual(['a original']);
      await service.getSession(key(b)); // pushes a out
      expect(texts(await service.getSession(key(a)))).toEqual(['a rewritten']);
    });

    it('a session deleted and created again by another service is read afresh, not mixed with the old events', async () => {
      const { open } = scratch();
      const reader = open();
      const other = open();
      const old = await other.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      await other.appendEvent(old, said('old-1', 'old'));
      await other.appendEvent(old, said('old-2', 'old'));
      expect((await reader.getSession(key(old)))!.events).toHaveLength(2);

      await other.deleteSession(key(old));
      const fresh = await other.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      for (const id of ['new-1', 'new-2', 'new-3']) await other.appendEvent(fresh, said(id, 'new'));
      expect((await reader.getSession(key(fresh)))!.events.map((e) => e.id)).toEqual(['new-1', 'new-2', 'new-3']);
    });

    it('a filtered read of a session it does not hold reads only the rows asked for; of one it holds, filters in memory', async () => {
      const { path, open } = scratch();
      const service = open();
      const session = await service.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      for (const [id, timestamp] of [['e1', 1000], ['e2', 2000], ['e3', 3000]] as const) await service.appendEvent(session, event({ id, timestamp }));
      const cold = open();
      const raw = new Database(path);
      raw.prepare("UPDATE adkit_events SET data = 'not json' WHERE id = 'e1'").run();
      raw.close();
      // e1 is broken, but a cold reader asking for the newest two never reads it.
      expect((await cold.getSession({ ...key(session), numRecentEvents: 2 }))!.events.map((e) => e.id)).toEqual(['e2', 'e3']);
      await expect(cold.getSession(key(session))).rejects.toThrow('Event "e1" (row 1) of session "s" holds invalid JSON; the database is damaged.');
      // The writer holds all three, decoded when they were appended.
      expect((await service.getSession({ ...key(session), afterTimestamp: 1500 }))!.events.map((e) => e.id)).toEqual(['e2', 'e3']);
      expect((await service.getSession(key(session)))!.events.map((e) => e.id)).toEqual(['e1', 'e2', 'e3']);
    });

    it('events read from the cache are frozen and shared, and each read gets its own array', async () => {
      const { open } = scratch();
      const service = open();
      const session = await service.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      await service.appendEvent(session, said('e1', 'hi'));
      const first = (await service.getSession(key(session)))!;
      const second = (await service.getSession(key(session)))!;
      expect(first.events[0]).toBe(second.events[0]);
      expect(Object.isFrozen(first.events[0]!.content!.parts![0])).toBe(true);
      first.events.pop();
      expect(second.events).toHaveLength(1);
      expect((await service.getSession(key(session)))!.events).toHaveLength(1);
    });
  });

  describe('closing', () => {
    it('every method of a closed service fails with a clear error; closing twice is fine', async () => {
      const { path, open } = scratch();
      const service = open();
      const session = await service.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      await service.close();
      await service.close();

      const message = `This SqliteSessionService ("${path}") is closed; create a new SqliteSessionService({ path }) to use the database again.`;
      const calls: Promise<unknown>[] = [
        service.createSession({ appName: 'shop', userId: 'ada' }),
        service.getSession(key(session)),
        service.listSessions({ appName: 'shop' }),
        service.deleteSession(key(session)),
        service.appendEvent(session, event()),
        service.appendEvent(session, event({ partial: true })),
      ];
      for (const call of calls) {
        const error = await rejection(call);
        expect(isAdkitError(error)).toBe(true);
        expect(error).toMatchObject({ code: 'SESSION_ERROR', message });
      }
      expect(await open().getSession(key(session))).toMatchObject({ id: 's', events: [] });
    });
  });

  describe('bad options and files', () => {
    it('refuses missing or bad options with a ConfigError naming the fix', () => {
      const bad: [unknown, string][] = [
        [undefined, "SqliteSessionService needs a path: pass { path: 'sessions.db' } for a file, or { path: ':memory:' } for a private in-memory database."],
        [{ path: '' }, "SqliteSessionService needs a path: pass { path: 'sessions.db' } for a file, or { path: ':memory:' } for a private in-memory database."],
        [{ path: ':memory:', busyTimeoutMs: -1 }, 'SqliteSessionService: busyTimeoutMs must be a whole number of milliseconds, 0 or more; got -1.'],
        [{ path: ':memory:', busyTimeoutMs: 1.5 }, 'SqliteSessionService: busyTimeoutMs must be a whole number of milliseconds, 0 or more; got 1.5.'],
        [{ path: ':memory:', cachedSessions: -1 }, 'SqliteSessionService: cachedSessions must be a whole number, 0 or more; got -1.'],
        [{ path: ':memory:', cachedSessions: Number.NaN }, 'SqliteSessionService: cachedSessions must be a whole number, 0 or more; got NaN.'],
      ];
      for (const [options, message] of bad) {
        let error: unknown;
        try {
          new SqliteSessionService(options as SqliteSessionServiceOptions);
        } catch (thrown) {
          error = thrown;
        }
        expect(error).toMatchObject({ name: 'ConfigError', code: 'INVALID_CONFIG', message });
      }
    });

    it('refuses a file that is not a database, and leaves it as it was', async () => {
      const { file } = scratch();
      const path = file('notes.txt');
      writeFileSync(path, 'these are not the tables you are looking for\n'.repeat(200));
      expect(() => new SqliteSessionService({ path })).toThrow(
        expect.objectContaining({ code: 'SESSION_ERROR', message: `Cannot open session database "${path}": file is not a database.` }),
      );
    });

    it('refuses a path in a directory that does not exist', () => {
      const { file } = scratch();
      const path = file('missing/dir/sessions.db');
      expect(() => new SqliteSessionService({ path })).toThrow(
        `Cannot open session database "${path}": Cannot open database because the directory does not exist.`,
      );
    });
  });

  describe('data that JSON cannot keep', () => {
    class Money {
      constructor(readonly cents: number) {}
    }
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const cases: [string, unknown, string][] = [
      ['a Date', new Date(0), 'is a Date; store date.toISOString() or date.getTime()'],
      ['a Map', new Map(), 'is a Map; store a plain object or an array instead'],
      ['a class instance', new Money(5), 'is a Money; store a plain object or an array instead'],
      ['a BigInt', 10n, 'is a BigInt (10n); store it as a number or a string'],
      ['NaN', Number.NaN, 'is NaN, which JSON cannot hold; store a finite number or null'],
      ['a function', () => 1, 'is a function; store plain data (strings, numbers, booleans, null, arrays, objects)'],
    ];

    it.each(cases)('createSession refuses %s in the state, naming the key, and creates nothing', async (_, value, problem) => {
      const { open } = scratch();
      const service = open();
      const error = await rejection(service.createSession({ appName: 'shop', userId: 'ada', sessionId: 's', state: { ok: 1, 'user:bad': value } }));
      expect(error).toMatchObject({
        code: 'SESSION_ERROR',
        message: `Cannot create session "s": state["user:bad"] ${problem}. Session data must be plain JSON.`,
      });
      expect(await service.listSessions({ appName: 'shop' })).toEqual([]);
      expect((await service.createSession({ appName: 'shop', userId: 'ada' })).state).toEqual({});
    });

    it.each(cases)('appendEvent refuses %s in the event, naming the path, and stores nothing', async (_, value, problem) => {
      const { open } = scratch();
      const service = open();
      const session = await service.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      const bad = event({ id: 'bad', actions: { stateDelta: { 'app:ok': 1, nested: { deep: [0, value] } } } });
      const error = await rejection(service.appendEvent(session, bad));
      expect(error).toMatchObject({
        code: 'SESSION_ERROR',
        message: `Cannot append event "bad" to session "s": event.actions.stateDelta.nested.deep[1] ${problem}. Session data must be plain JSON.`,
      });
      expect(session).toMatchObject({ state: {}, events: [] });
      expect(await service.getSession(key(session))).toMatchObject({ state: {}, events: [] });
    });

    it('refuses cycles and undefined array items, and names them', async () => {
      const { open } = scratch();
      const service = open();
      const session = await service.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      await expect(service.appendEvent(session, event({ id: 'c', customMetadata: { cycle } }))).rejects.toThrow(
        'Cannot append event "c" to session "s": event.customMetadata.cycle.self refers back to one of its ancestors (a cycle). Session data must be plain JSON.',
      );
      await expect(service.appendEvent(session, event({ id: 'u', longRunningToolIds: ['a', undefined as unknown as string] }))).rejects.toThrow(
        'Cannot append event "u" to session "s": event.longRunningToolIds[1] is undefined inside an array; use null. Session data must be plain JSON.',
      );
    });

    it('refuses a value nested 10,000 levels deep without exhausting the stack, and stores nothing', async () => {
      const { open } = scratch();
      const service = open();
      const session = await service.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      let deep: Record<string, unknown> = {};
      for (let i = 0; i < 10_000; i++) deep = { a: deep };
      const error = await rejection(service.appendEvent(session, event({ id: 'deep', actions: { stateDelta: { deep } } })));
      expect(error).toMatchObject({ code: 'SESSION_ERROR' });
      expect((error as Error).message).toMatch(
        /^Cannot append event "deep" to session "s": event\.actions\.stateDelta\.deep\.a\.a[.a]*… nests deeper than 108 levels; flatten the data\. Session data must be plain JSON\.$/,
      );
      expect(await service.getSession(key(session))).toMatchObject({ events: [], state: {} });
    });

    it('TC-13: temp: keys may hold anything, since they are never stored', async () => {
      const { open } = scratch();
      const service = open();
      const when = new Date(0);
      const session = await service.createSession({ appName: 'shop', userId: 'ada', state: { 'temp:when': when } });
      await service.appendEvent(session, event({ actions: { stateDelta: { 'temp:when': when, 'temp:big': 1n, kept: true } } }));
      expect(session.state['temp:when']).toBe(when);
      expect((await service.getSession(key(session)))!.state).toEqual({ kept: true });
    });

    it('drops undefined object fields, as JSON does (they read back as absent)', async () => {
      const { open } = scratch();
      const service = open();
      const session = await service.createSession({ appName: 'shop', userId: 'ada' });
      await service.appendEvent(session, event({ id: 'e', branch: undefined, actions: { stateDelta: { gone: undefined, kept: 1 } } }));
      const stored = (await service.getSession(key(session)))!;
      expect(stored.events[0]).not.toHaveProperty('branch');
      expect(stored.state).toEqual({ kept: 1 });
    });

    it('refuses an event without a usable id, timestamp or actions', async () => {
      const { open } = scratch();
      const service = open();
      const session = await service.createSession({ appName: 'shop', userId: 'ada', sessionId: 's' });
      const broken: [unknown, string][] = [
        [{ ...event({ id: 'x' }), timestamp: undefined }, 'Cannot append event "x" to session "s": event.timestamp must be a finite number of milliseconds since the epoch.'],
        [{ ...event(), id: 7 }, 'Cannot append event "7" to session "s": event.id must be a string.'],
        [{ ...event({ id: 'y' }), actions: undefined }, 'Cannot append event "y" to session "s": event.actions.stateDelta must be an object (build events with createEvent).'],
      ];
      for (const [bad, message] of broken) await expect(service.appendEvent(session, bad as Event)).rejects.toThrow(message);
      expect((await service.getSession(key(session)))!.events).toEqual([]);
    });
  });
});
