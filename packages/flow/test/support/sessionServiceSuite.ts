/**
 * The contract every `SessionService` keeps, as one vitest suite. The in-memory service is the
 * reference; other services (`@adkit/session-sqlite`, later Postgres) run the same tests:
 *
 * ```ts
 * runSessionServiceSuite('SqliteSessionService', async () => {
 *   const service = new SqliteSessionService({ path: tempFile() });
 *   return { service, close: () => service.close() };
 * });
 * ```
 *
 * Rules: TC-12 (EventActions), TC-13 (state prefixes, temp stripping, partial events never
 * persisted), TC-14 (the final-response fields round-trip); issue #15: stored events are frozen
 * and shared, every append moves the session's version on, and a stale session is refused with
 * SESSION_CONFLICT (never two interleaved histories).
 *
 * Bad input tried: stale session objects, two appends racing on one loaded session, an old
 * session object after its id was deleted and created again, a session built by hand, state keys
 * `__proto__`, `constructor`, `toString`, writes into fetched (frozen) events.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEvent, isAdkitError, type Event, type EventInit, type Session, type SessionService } from '../../src/index.js';

/** A fresh, empty service for one test, and how to dispose of it afterwards. */
export interface SessionServiceFixture {
  service: SessionService;
  close?: () => Promise<void>;
}

const APP = 'shop';
const OTHER_APP = 'bank';

/** Registers the shared session-service tests under `describe(name)`. */
export function runSessionServiceSuite(name: string, create: () => Promise<SessionServiceFixture>): void {
  describe(`${name} (shared SessionService suite)`, () => {
    let fixture: SessionServiceFixture;
    let service: SessionService;

    beforeEach(async () => {
      fixture = await create();
      service = fixture.service;
    });

    afterEach(async () => {
      await fixture.close?.();
    });

    const event = (init: Partial<EventInit> = {}): Event =>
      createEvent({ invocationId: 'inv-1', author: 'user', ...init });

    const reload = async (session: Session, options: { numRecentEvents?: number; afterTimestamp?: number } = {}) =>
      service.getSession({ appName: session.appName, userId: session.userId, sessionId: session.id, ...options });

    const mustReload = async (session: Session) => {
      const got = await reload(session);
      if (!got) throw new Error(`session ${session.id} vanished`);
      return got;
    };

    describe('createSession', () => {
      it('creates a session with the given id, empty events and the creation time', async () => {
        const before = Date.now();
        const session = await service.createSession({ appName: APP, userId: 'ada', sessionId: 's-1' });
        const after = Date.now();
        expect(session).toMatchObject({ id: 's-1', appName: APP, userId: 'ada', state: {}, events: [] });
        expect(session.lastUpdateTime).toBeGreaterThanOrEqual(before);
        expect(session.lastUpdateTime).toBeLessThanOrEqual(after);
        expect(await mustReload(session)).toEqual(session);
      });

      it('makes up a unique id when none is given', async () => {
        const a = await service.createSession({ appName: APP, userId: 'ada' });
        const b = await service.createSession({ appName: APP, userId: 'ada' });
        expect(a.id).toMatch(/\S/);
        expect(b.id).not.toBe(a.id);
        expect((await mustReload(a)).id).toBe(a.id);
        expect((await mustReload(b)).id).toBe(b.id);
      });

      it('refuses a duplicate id with a clear error and keeps the first session intact', async () => {
        const first = await service.createSession({ appName: APP, userId: 'ada', sessionId: 'dup', state: { n: 1 } });
        await service.appendEvent(first, event({ actions: { stateDelta: { n: 2 } } }));

        const error = await service
          .createSession({ appName: APP, userId: 'ada', sessionId: 'dup', state: { n: 99, 'app:flag': 'lost', 'user:u': 'lost' } })
          .then(() => undefined, (thrown: unknown) => thrown);
        expect(isAdkitError(error)).toBe(true);
        expect(error).toMatchObject({
          code: 'SESSION_ERROR',
          message: `Session "dup" already exists for app "${APP}" and user "ada"; pass another sessionId or omit it.`,
        });

        const kept = await mustReload(first);
        expect(kept.state).toEqual({ n: 2 });
        expect(kept.events).toHaveLength(1);
      });

      it('allows the same id for another user or another app', async () => {
        await service.createSession({ appName: APP, userId: 'ada', sessionId: 'same' });
        const otherUser = await service.createSession({ appName: APP, userId: 'bob', sessionId: 'same' });
        const otherApp = await service.createSession({ appName: OTHER_APP, userId: 'ada', sessionId: 'same' });
        expect([otherUser.userId, otherApp.appName]).toEqual(['bob', OTHER_APP]);
      });

      it('TC-13: splits the initial state into app, user and session scopes and drops temp: keys', async () => {
        const session = await service.createSession({
          appName: APP,
          userId: 'ada',
          state: { cart: ['apple'], 'app:currency': 'EUR', 'user:tier': 'gold', 'temp:draft': 'x' },
        });
        const expected = { cart: ['apple'], 'app:currency': 'EUR', 'user:tier': 'gold' };
        expect(session.state).toEqual(expected);
        expect(await mustReload(session)).toMatchObject({ state: expected });

        const sameUser = await service.createSession({ appName: APP, userId: 'ada' });
        expect(sameUser.state).toEqual({ 'app:currency': 'EUR', 'user:tier': 'gold' });
        const otherUser = await service.createSession({ appName: APP, userId: 'bob' });
        expect(otherUser.state).toEqual({ 'app:currency': 'EUR' });
        const otherApp = await service.createSession({ appName: OTHER_APP, userId: 'ada' });
        expect(otherApp.state).toEqual({});
      });

      it('TC-13: initial app: and user: keys merge into the shared scopes instead of replacing them', async () => {
        await service.createSession({ appName: APP, userId: 'ada', state: { 'app:a': 1, 'user:u': 1 } });
        await service.createSession({ appName: APP, userId: 'ada', state: { 'app:b': 2, 'user:u': 2 } });
        const third = await service.createSession({ appName: APP, userId: 'ada' });
        expect(third.state).toEqual({ 'app:a': 1, 'app:b': 2, 'user:u': 2 });
      });

      it('hands out a copy: changing the returned session changes nothing stored', async () => {
        const session = await service.createSession({ appName: APP, userId: 'ada', state: { nested: { n: 1 }, 'user:u': { n: 1 } } });
        (session.state.nested as { n: number }).n = 3;
        (session.state['user:u'] as { n: number }).n = 3;
        session.state.added = true;
        expect((await mustReload(session)).state).toEqual({ nested: { n: 1 }, 'user:u': { n: 1 } });
      });

      it('stores a copy of the initial state: changing the object passed in changes nothing stored', async () => {
        const initial = { nested: { n: 1 }, 'app:a': { n: 1 }, 'user:u': { n: 1 } };
        const session = await service.createSession({ appName: APP, userId: 'ada', state: initial });
        initial.nested.n = 2;
        initial['app:a'].n = 2;
        initial['user:u'].n = 2;
        expect((await mustReload(session)).state).toEqual({ nested: { n: 1 }, 'app:a': { n: 1 }, 'user:u': { n: 1 } });
      });
    });

    describe('getSession', () => {
      it('resolves to undefined for an unknown session, user or app', async () => {
        await service.createSession({ appName: APP, userId: 'ada', sessionId: 'known' });
        expect(await service.getSession({ appName: APP, userId: 'ada', sessionId: 'unknown' })).toBeUndefined();
        expect(await service.getSession({ appName: APP, userId: 'bob', sessionId: 'known' })).toBeUndefined();
        expect(await service.getSession({ appName: OTHER_APP, userId: 'ada', sessionId: 'known' })).toBeUndefined();
      });

      it('hands out frozen events and its own array and state: changing them throws or changes nothing stored', async () => {
        const session = await service.createSession({ appName: APP, userId: 'ada' });
        await service.appendEvent(session, event({ content: { role: 'user', parts: [{ text: 'hi' }] }, actions: { stateDelta: { k: 'v' } } }));
        const fetched = await mustReload(session);
        expect(() => {
          fetched.events[0]!.content!.parts![0]!.text = 'changed';
        }).toThrow(TypeError);
        expect(() => {
          fetched.events[0]!.actions.stateDelta.k = 'changed';
        }).toThrow(TypeError);
        expect(() => {
          fetched.events[0]!.id = 'changed';
        }).toThrow(TypeError);
        fetched.events.push(event());
        fetched.state.k = 'changed';
        const again = await mustReload(session);
        expect(again.events).toHaveLength(1);
        expect(again.events[0]!.content!.parts![0]!.text).toBe('hi');
        expect(again.events[0]!.actions.stateDelta).toEqual({ k: 'v' });
        expect(again.state).toEqual({ k: 'v' });
        // A copy of a stored event is the caller's to change.
        const copy = structuredClone(again.events[0]!);
        copy.id = 'mine';
        expect(copy.id).toBe('mine');
      });

      describe('numRecentEvents and afterTimestamp', () => {
        let session: Session;
        beforeEach(async () => {
          session = await service.createSession({ appName: APP, userId: 'ada' });
          for (const [id, timestamp] of [['e1', 1000], ['e2', 2000], ['e3', 3000], ['e4', 4000]] as const)
            await service.appendEvent(session, event({ id, timestamp }));
        });

        const ids = (got: Session | undefined) => got?.events.map((e) => e.id);

        it('numRecentEvents keeps the newest N events, oldest first', async () => {
          expect(ids(await reload(session, { numRecentEvents: 2 }))).toEqual(['e3', 'e4']);
          expect(ids(await reload(session, { numRecentEvents: 1 }))).toEqual(['e4']);
          expect(ids(await reload(session, { numRecentEvents: 10 }))).toEqual(['e1', 'e2', 'e3', 'e4']);
        });

        it('numRecentEvents of 0 or less gives no events, but still the state', async () => {
          await service.appendEvent(session, event({ id: 'e5', timestamp: 5000, actions: { stateDelta: { k: 1 } } }));
          expect(await reload(session, { numRecentEvents: 0 })).toMatchObject({ events: [], state: { k: 1 } });
          expect(ids(await reload(session, { numRecentEvents: -3 }))).toEqual([]);
        });

        it('afterTimestamp keeps events at or after the time', async () => {
          expect(ids(await reload(session, { afterTimestamp: 2000 }))).toEqual(['e2', 'e3', 'e4']);
          expect(ids(await reload(session, { afterTimestamp: 2001 }))).toEqual(['e3', 'e4']);
          expect(ids(await reload(session, { afterTimestamp: 0 }))).toEqual(['e1', 'e2', 'e3', 'e4']);
          expect(ids(await reload(session, { afterTimestamp: 9999 }))).toEqual([]);
        });

        it('both together: filter by time first, then keep the newest N', async () => {
          expect(ids(await reload(session, { afterTimestamp: 2000, numRecentEvents: 2 }))).toEqual(['e3', 'e4']);
          expect(ids(await reload(session, { afterTimestamp: 3500, numRecentEvents: 3 }))).toEqual(['e4']);
        });

        it('filters keep append order even when timestamps go backwards', async () => {
          await service.appendEvent(session, event({ id: 'late-but-old', timestamp: 2500 }));
          expect(ids(await reload(session, { afterTimestamp: 2500 }))).toEqual(['e3', 'e4', 'late-but-old']);
          expect(ids(await reload(session, { numRecentEvents: 2 }))).toEqual(['e4', 'late-but-old']);
        });
      });
    });

    describe('listSessions', () => {
      it("lists one user's sessions, or every user's, of one app, without events", async () => {
        const a1 = await service.createSession({ appName: APP, userId: 'ada', sessionId: 'a1', state: { n: 1 } });
        await service.appendEvent(a1, event({ timestamp: 5000 }));
        await service.createSession({ appName: APP, userId: 'ada', sessionId: 'a2' });
        await service.createSession({ appName: APP, userId: 'bob', sessionId: 'b1' });
        await service.createSession({ appName: OTHER_APP, userId: 'ada', sessionId: 'x1' });

        const byId = (sessions: Session[]) => [...sessions].sort((x, y) => x.id.localeCompare(y.id));
        const ada = byId(await service.listSessions({ appName: APP, userId: 'ada' }));
        expect(ada.map((s) => s.id)).toEqual(['a1', 'a2']);
        expect(ada[0]).toEqual({ id: 'a1', appName: APP, userId: 'ada', state: { n: 1 }, events: [], lastUpdateTime: 5000, version: expect.any(Number) });
        expect(ada[1]!.events).toEqual([]);

        const all = byId(await service.listSessions({ appName: APP }));
        expect(all.map((s) => [s.userId, s.id])).toEqual([['ada', 'a1'], ['ada', 'a2'], ['bob', 'b1']]);
        expect(all.every((s) => s.events.length === 0)).toBe(true);
      });

      it('TC-13: listed sessions carry the merged app: and user: state', async () => {
        await service.createSession({ appName: APP, userId: 'ada', state: { 'app:a': 1, 'user:u': 'ada' } });
        await service.createSession({ appName: APP, userId: 'bob', state: { own: true } });
        const listed = await service.listSessions({ appName: APP, userId: 'bob' });
        expect(listed.map((s) => s.state)).toEqual([{ own: true, 'app:a': 1 }]);
      });

      it('is empty for an app or user with no sessions', async () => {
        await service.createSession({ appName: APP, userId: 'ada' });
        expect(await service.listSessions({ appName: OTHER_APP })).toEqual([]);
        expect(await service.listSessions({ appName: APP, userId: 'nobody' })).toEqual([]);
      });
    });

    describe('deleteSession', () => {
      it('deletes the session and its events, and nothing else', async () => {
        const doomed = await service.createSession({ appName: APP, userId: 'ada', sessionId: 'doomed' });
        await service.appendEvent(doomed, event({ actions: { stateDelta: { 'app:a': 1, 'user:u': 2, s: 3 } } }));
        const kept = await service.createSession({ appName: APP, userId: 'ada', sessionId: 'kept' });
        await service.appendEvent(kept, event({ id: 'kept-event' }));

        await service.deleteSession({ appName: APP, userId: 'ada', sessionId: 'doomed' });

        expect(await reload(doomed)).toBeUndefined();
        expect((await service.listSessions({ appName: APP })).map((s) => s.id)).toEqual(['kept']);
        const survivor = await mustReload(kept);
        expect(survivor.events.map((e) => e.id)).toEqual(['kept-event']);
        expect(survivor.state).toEqual({ 'app:a': 1, 'user:u': 2 });
      });

      it('a new session may reuse the id of a deleted one and starts empty', async () => {
        const old = await service.createSession({ appName: APP, userId: 'ada', sessionId: 'reused', state: { old: true } });
        await service.appendEvent(old, event());
        await service.deleteSession({ appName: APP, userId: 'ada', sessionId: 'reused' });
        const fresh = await service.createSession({ appName: APP, userId: 'ada', sessionId: 'reused' });
        expect(await mustReload(fresh)).toMatchObject({ state: {}, events: [] });
      });

      it('deleting an unknown session is a no-op', async () => {
        const kept = await service.createSession({ appName: APP, userId: 'ada', sessionId: 'kept' });
        await service.deleteSession({ appName: APP, userId: 'ada', sessionId: 'never-was' });
        await service.deleteSession({ appName: OTHER_APP, userId: 'ada', sessionId: 'kept' });
        await service.deleteSession({ appName: APP, userId: 'bob', sessionId: 'kept' });
        expect(await reload(kept)).toBeDefined();
      });
    });

    describe('appendEvent', () => {
      it('keeps events in append order, applies them to the caller and stores them', async () => {
        const session = await service.createSession({ appName: APP, userId: 'ada' });
        const events = [event({ id: 'a', timestamp: 3000 }), event({ id: 'b', timestamp: 1000 }), event({ id: 'c', timestamp: 2000 })];
        for (const e of events) expect(await service.appendEvent(session, e)).toBe(e);
        expect(session.events.map((e) => e.id)).toEqual(['a', 'b', 'c']);
        expect((await mustReload(session)).events.map((e) => e.id)).toEqual(['a', 'b', 'c']);
      });

      it('TC-13: applies a session-scoped state delta to the caller and stores it; later values win', async () => {
        const session = await service.createSession({ appName: APP, userId: 'ada', state: { keep: 'me', n: 0 } });
        await service.appendEvent(session, event({ actions: { stateDelta: { n: 1, list: [1, 2] } } }));
        await service.appendEvent(session, event({ actions: { stateDelta: { n: 2, cleared: null } } }));
        const expected = { keep: 'me', n: 2, list: [1, 2], cleared: null };
        expect(session.state).toEqual(expected);
        expect((await mustReload(session)).state).toEqual(expected);
      });

      it('TC-13: app: keys are shared by every user and session of the app, and isolated from other apps', async () => {
        const ada = await service.createSession({ appName: APP, userId: 'ada' });
        const bob = await service.createSession({ appName: APP, userId: 'bob' });
        const elsewhere = await service.createSession({ appName: OTHER_APP, userId: 'ada' });

        await service.appendEvent(ada, event({ actions: { stateDelta: { 'app:motd': 'sale today' } } }));
        expect(ada.state).toEqual({ 'app:motd': 'sale today' });
        expect((await mustReload(bob)).state).toEqual({ 'app:motd': 'sale today' });
        expect((await service.createSession({ appName: APP, userId: 'cy' })).state).toEqual({ 'app:motd': 'sale today' });
        expect((await mustReload(elsewhere)).state).toEqual({});

        await service.appendEvent(bob, event({ actions: { stateDelta: { 'app:motd': 'closed' } } }));
        expect((await mustReload(ada)).state).toEqual({ 'app:motd': 'closed' });
        await service.appendEvent(elsewhere, event({ actions: { stateDelta: { 'app:motd': 'other app' } } }));
        expect((await mustReload(ada)).state).toEqual({ 'app:motd': 'closed' });
      });

      it("TC-13: user: keys are shared by that user's sessions of the app only", async () => {
        const first = await service.createSession({ appName: APP, userId: 'ada' });
        const second = await service.createSession({ appName: APP, userId: 'ada' });
        const bob = await service.createSession({ appName: APP, userId: 'bob' });
        const otherApp = await service.createSession({ appName: OTHER_APP, userId: 'ada' });

        await service.appendEvent(first, event({ actions: { stateDelta: { 'user:lang': 'fr', local: 1 } } }));
        expect((await mustReload(second)).state).toEqual({ 'user:lang': 'fr' });
        expect((await mustReload(bob)).state).toEqual({});
        expect((await mustReload(otherApp)).state).toEqual({});
        expect((await mustReload(first)).state).toEqual({ 'user:lang': 'fr', local: 1 });
      });

      it('TC-13: temp: keys reach the caller for this invocation but are never stored', async () => {
        const session = await service.createSession({ appName: APP, userId: 'ada' });
        const appended = event({ actions: { stateDelta: { 'temp:scratch': { big: true }, kept: 1 } } });
        await service.appendEvent(session, appended);

        expect(session.state).toEqual({ 'temp:scratch': { big: true }, kept: 1 });
        expect(session.events[0]!.actions.stateDelta).toEqual({ 'temp:scratch': { big: true }, kept: 1 });

        const stored = await mustReload(session);
        expect(stored.state).toEqual({ kept: 1 });
        expect(stored.events[0]!.actions.stateDelta).toEqual({ kept: 1 });
        expect(appended.actions.stateDelta).toEqual({ 'temp:scratch': { big: true }, kept: 1 });
      });

      it('TC-13: temp: keys may hold values that cannot be copied or stored (a function, a class instance)', async () => {
        const callback = () => 'invocation-only';
        const controller = new AbortController();
        const session = await service.createSession({ appName: APP, userId: 'ada', state: { 'temp:callback': callback } });
        expect(session.state).toEqual({});
        await service.appendEvent(session, event({ actions: { stateDelta: { 'temp:callback': callback, 'temp:controller': controller, kept: 1 } } }));
        expect(session.state['temp:callback']).toBe(callback);
        expect(session.state['temp:controller']).toBe(controller);
        const stored = await mustReload(session);
        expect(stored.state).toEqual({ kept: 1 });
        expect(stored.events[0]!.actions.stateDelta).toEqual({ kept: 1 });
      });

      it('TC-13: partial events are returned untouched, never stored and not applied', async () => {
        const session = await service.createSession({ appName: APP, userId: 'ada', state: { n: 0 } });
        const chunk = event({ partial: true, content: { role: 'model', parts: [{ text: 'Hel' }] }, actions: { stateDelta: { n: 1, 'app:x': 1 } } });
        expect(await service.appendEvent(session, chunk)).toBe(chunk);
        expect(session).toMatchObject({ state: { n: 0 }, events: [] });

        const stored = await mustReload(session);
        expect(stored).toMatchObject({ state: { n: 0 }, events: [] });
        expect((await service.createSession({ appName: APP, userId: 'bob' })).state).toEqual({});
      });

      it('stores a copy: changing the appended event afterwards changes nothing stored', async () => {
        const session = await service.createSession({ appName: APP, userId: 'ada' });
        const appended = event({
          content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'f', args: { x: 1 } } }] },
          actions: { stateDelta: { k: { deep: 1 } } },
        });
        await service.appendEvent(session, appended);
        expect(Object.isFrozen(appended)).toBe(false);
        appended.content!.parts![0]!.functionCall!.args!.x = 2;
        (appended.actions.stateDelta.k as { deep: number }).deep = 2;
        appended.id = 'renamed';

        const stored = await mustReload(session);
        expect(stored.events[0]!.content!.parts![0]!.functionCall!.args).toEqual({ x: 1 });
        expect(stored.events[0]!.id).not.toBe('renamed');
        expect(stored.state).toEqual({ k: { deep: 1 } });
      });

      it('sets lastUpdateTime to the event time, on the caller and in storage', async () => {
        const session = await service.createSession({ appName: APP, userId: 'ada' });
        await service.appendEvent(session, event({ timestamp: 1_700_000_000_500 }));
        expect(session.lastUpdateTime).toBe(1_700_000_000_500);
        expect((await mustReload(session)).lastUpdateTime).toBe(1_700_000_000_500);
        const [listed] = await service.listSessions({ appName: APP, userId: 'ada' });
        expect(listed!.lastUpdateTime).toBe(1_700_000_000_500);
      });

      it('moves the version on with every append, on the caller and in storage; partial events leave it', async () => {
        const session = await service.createSession({ appName: APP, userId: 'ada' });
        const versions = [session.version];
        expect(typeof session.version).toBe('number');
        for (let i = 0; i < 3; i++) {
          await service.appendEvent(session, event());
          versions.push(session.version);
          expect((await mustReload(session)).version).toBe(session.version);
        }
        expect(new Set(versions).size).toBe(4);
        await service.appendEvent(session, event({ partial: true }));
        expect(session.version).toBe(versions[3]);
        expect((await mustReload(session)).version).toBe(versions[3]);
        const [listed] = await service.listSessions({ appName: APP, userId: 'ada' });
        expect(listed!.version).toBe(versions[3]);
      });

      it('refuses a stale session with SESSION_CONFLICT and stores nothing; the reloaded session appends', async () => {
        const session = await service.createSession({ appName: APP, userId: 'ada', state: { n: 0 } });
        const stale = await mustReload(session);
        await service.appendEvent(session, event({ id: 'first', actions: { stateDelta: { n: 1 } } }));

        const error = await service
          .appendEvent(stale, event({ id: 'second', actions: { stateDelta: { n: 2, 'app:a': 2, 'user:u': 2 } } }))
          .then(() => undefined, (thrown: unknown) => thrown);
        expect(isAdkitError(error)).toBe(true);
        expect(error).toMatchObject({
          name: 'SessionConflictError',
          code: 'SESSION_CONFLICT',
          message:
            `Session "${session.id}" of app "${APP}" and user "ada" changed since it was loaded ` +
            `(it has version ${stale.version}, the store has ${session.version}): another runner or process appended to it first. ` +
            'Nothing was stored; load the session again with getSession and retry the turn.',
        });
        expect(stale).toMatchObject({ state: { n: 0 }, events: [] });
        const stored = await mustReload(session);
        expect(stored.events.map((e) => e.id)).toEqual(['first']);
        expect(stored.state).toEqual({ n: 1 });
        expect((await service.createSession({ appName: APP, userId: 'ada' })).state).toEqual({});

        await service.appendEvent(stored, event({ id: 'second', actions: { stateDelta: { n: 2 } } }));
        expect((await mustReload(session)).events.map((e) => e.id)).toEqual(['first', 'second']);
      });

      it('two appends on one loaded session at once: exactly one is stored, the other is a conflict', async () => {
        const session = await service.createSession({ appName: APP, userId: 'ada' });
        const a = await mustReload(session);
        const b = await mustReload(session);
        const outcomes = await Promise.allSettled([
          service.appendEvent(a, event({ id: 'from-a', actions: { stateDelta: { by: 'a' } } })),
          service.appendEvent(b, event({ id: 'from-b', actions: { stateDelta: { by: 'b' } } })),
        ]);
        const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(rejected).toHaveLength(1);
        expect(rejected[0]!.reason).toMatchObject({ code: 'SESSION_CONFLICT' });
        const winner = outcomes[0]!.status === 'fulfilled' ? 'a' : 'b';
        const stored = await mustReload(session);
        expect(stored.events.map((e) => e.id)).toEqual([`from-${winner}`]);
        expect(stored.state).toEqual({ by: winner });
      });

      it('a session created again under a deleted one\'s id refuses the old session object', async () => {
        const old = await service.createSession({ appName: APP, userId: 'ada', sessionId: 'again' });
        await service.deleteSession({ appName: APP, userId: 'ada', sessionId: 'again' });
        const fresh = await service.createSession({ appName: APP, userId: 'ada', sessionId: 'again' });
        expect(fresh.version).not.toBe(old.version);
        await expect(service.appendEvent(old, event({ id: 'ghost' }))).rejects.toMatchObject({ code: 'SESSION_CONFLICT' });
        expect((await mustReload(fresh)).events).toEqual([]);
      });

      it('a session built by hand without a version appends without the check', async () => {
        const session = await service.createSession({ appName: APP, userId: 'ada', sessionId: 'by-hand' });
        await service.appendEvent(session, event({ id: 'one' }));
        const byHand: Session = { id: 'by-hand', appName: APP, userId: 'ada', state: {}, events: [], lastUpdateTime: 0 };
        await service.appendEvent(byHand, event({ id: 'two' }));
        expect(byHand.version).toBe((await mustReload(session)).version);
        expect((await mustReload(session)).events.map((e) => e.id)).toEqual(['one', 'two']);
      });

      it('keeps __proto__, constructor and toString state keys as data (JSON from a model may carry them)', async () => {
        const delta = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1, "toString": "s", "app:__proto__": 2, "user:__proto__": 3}') as Record<string, unknown>;
        const session = await service.createSession({ appName: APP, userId: 'ada' });
        await service.appendEvent(session, event({ actions: { stateDelta: delta } }));
        const stored = await mustReload(session);
        expect(Object.getPrototypeOf(stored.state)).toBe(Object.prototype);
        expect(Object.keys(stored.state).sort()).toEqual(['__proto__', 'app:__proto__', 'constructor', 'toString', 'user:__proto__']);
        expect(Object.getOwnPropertyDescriptor(stored.state, '__proto__')?.value).toEqual({ polluted: true });
        expect(stored.state['app:__proto__']).toBe(2);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        const other = await service.createSession({ appName: APP, userId: 'ada' });
        expect(Object.keys(other.state).sort()).toEqual(['app:__proto__', 'user:__proto__']);
      });

      it('refuses to append to a deleted session, and loses nothing else', async () => {
        const doomed = await service.createSession({ appName: APP, userId: 'ada', sessionId: 'doomed' });
        const other = await service.createSession({ appName: APP, userId: 'ada', sessionId: 'other', state: { 'app:a': 0, 'user:u': 0 } });
        await service.appendEvent(other, event({ id: 'kept' }));
        await service.deleteSession({ appName: APP, userId: 'ada', sessionId: 'doomed' });

        const error = await service
          .appendEvent(doomed, event({ actions: { stateDelta: { 'app:a': 1, 'user:u': 1, s: 1 } } }))
          .then(() => undefined, (thrown: unknown) => thrown);
        expect(isAdkitError(error)).toBe(true);
        expect(error).toMatchObject({
          code: 'SESSION_ERROR',
          message: `Cannot append to session "doomed" of app "${APP}": it does not exist (deleted, or never created with createSession).`,
        });

        expect(doomed).toMatchObject({ events: [], state: {} });
        expect(await reload(doomed)).toBeUndefined();
        const survivor = await mustReload(other);
        expect(survivor.state).toEqual({ 'app:a': 0, 'user:u': 0 });
        expect(survivor.events.map((e) => e.id)).toEqual(['kept']);
      });

      it('refuses to append to a session that was never created', async () => {
        const ghost: Session = { id: 'ghost', appName: APP, userId: 'ada', state: {}, events: [], lastUpdateTime: 0 };
        await expect(service.appendEvent(ghost, event())).rejects.toThrow(
          `Cannot append to session "ghost" of app "${APP}": it does not exist (deleted, or never created with createSession).`,
        );
        expect(await service.listSessions({ appName: APP })).toEqual([]);
      });

      it('TC-12, TC-14: an event round-trips every field', async () => {
        const session = await service.createSession({ appName: APP, userId: 'ada' });
        const full = fullEvent();
        await service.appendEvent(session, full);

        const { 'temp:t': _dropped, ...storedDelta } = full.actions.stateDelta;
        const expected: Event = structuredClone({ ...full, actions: { ...full.actions, stateDelta: storedDelta } });
        const stored = await mustReload(session);
        expect(stored.events).toStrictEqual([expected]);
        expect(stored.state).toEqual({ ...storedDelta });
      });

      it('TC-12: events with only the required fields round-trip without gaining any', async () => {
        const session = await service.createSession({ appName: APP, userId: 'ada' });
        const minimal: Event = { id: 'min', invocationId: 'inv', author: 'user', timestamp: 42, actions: { stateDelta: {}, artifactDelta: {} } };
        await service.appendEvent(session, minimal);
        expect((await mustReload(session)).events).toStrictEqual([minimal]);
      });
    });
  });
}

/**
 * An event with every field set: content parts of every kind, every action, the TC-14 fields, and
 * a `temp:` key that storage must drop. `toolProgress` is left out: only partial events carry it,
 * and those are never stored. Services' own tests reuse it (restart tests, fixtures).
 */
export function fullEvent(): Event {
  return {
    id: 'evt-full',
    invocationId: 'inv-9',
    author: 'planner',
    branch: 'root.planner',
    timestamp: 1_700_000_000_123,
    content: {
      role: 'model',
      parts: [
        { text: 'weighing options', thought: true, thoughtSignature: 'c2lnbmF0dXJl' },
        { text: 'Grüße 👋 "quoted" \\ back\nslash\u0000nul' },
        { functionCall: { id: 'call-1', name: 'get_weather', args: { city: 'Zürich', days: 3, nested: { list: [1, null, true, 2.5, -7] } } } },
        { functionResponse: { id: 'call-0', name: 'lookup', response: { ok: true, items: [], empty: {} }, willContinue: false } },
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=', displayName: 'dot.png' } },
        { fileData: { mimeType: 'application/pdf', fileUri: 'gs://bucket/report.pdf', displayName: 'report' } },
        { executableCode: { language: 'PYTHON', code: 'print(1)' } },
        { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1\n' } },
      ],
    },
    partial: false,
    turnComplete: true,
    finishReason: 'STOP',
    errorCode: 'RESOURCE_EXHAUSTED',
    errorMessage: 'quota exceeded; retry later',
    longRunningToolIds: ['call-1', 'call-2'],
    actions: {
      stateDelta: {
        str: 'v',
        num: 3.25,
        neg: -1,
        bool: false,
        nil: null,
        arr: [1, 'two', { three: 3 }],
        obj: { a: { b: [] } },
        'ключ 🔑': 'unicode key',
        'app:shared': 'app value',
        'user:pref': 'user value',
        'temp:t': 'never stored',
      },
      artifactDelta: { 'report.pdf': 2, 'user:avatar.png': 0 },
      skipSummarization: true,
      escalate: true,
      transferToAgent: 'billing',
      requestedToolConfirmations: {
        'call-1': { hint: 'Approve the trip?', confirmed: false, payload: { days_approved: 0 } },
        'call-2': { confirmed: true },
      },
    },
    usageMetadata: {
      promptTokenCount: 10,
      candidatesTokenCount: 5,
      totalTokenCount: 15,
      thoughtsTokenCount: 2,
      cachedContentTokenCount: 1,
      trafficType: 'ON_DEMAND',
    },
    groundingMetadata: {
      webSearchQueries: ['weather zurich'],
      groundingChunks: [{ web: { uri: 'https://example.com/w', title: 'Example' } }],
    },
    modelVersion: 'gemini-2.5-flash-001',
    customMetadata: { traceId: 'abc', attempt: 1, tags: ['x'] },
  };
}
