import { describe, expect, it } from 'vitest';
import { createEvent } from '../src/index.js';
import { InMemorySessionService } from '../src/sessions/inMemorySessionService.js';
import { runSessionServiceSuite } from './support/sessionServiceSuite.js';

// The reference implementation runs the same suite as every other session service.
runSessionServiceSuite('InMemorySessionService', async () => ({ service: new InMemorySessionService() }));

describe('InMemorySessionService: the caller\'s session after appendEvent (#24)', () => {
  const key = { appName: 'app', userId: 'ada' };

  it('lists the stored frozen copy: equal to the event, shared with every later read, out of reach of the caller', async () => {
    const service = new InMemorySessionService();
    const session = await service.createSession(key);
    const given = createEvent({ invocationId: 'i', author: 'user', content: { role: 'user', parts: [{ text: 'hi' }] } });
    expect(await service.appendEvent(session, given)).toBe(given);
    const listed = session.events.at(-1)!;
    expect(listed).toEqual(given);
    expect(listed).not.toBe(given);
    expect(Object.isFrozen(listed) && Object.isFrozen(listed.content!.parts![0])).toBe(true);
    // What a reload hands out is the very same object (so a kept history goes on from it).
    const reloaded = await service.getSession({ ...key, sessionId: session.id });
    expect(reloaded!.events[0]).toBe(listed);
    // The caller changing its event afterwards changes neither this invocation's view nor the store.
    given.content!.parts![0]!.text = 'changed';
    expect(listed.content!.parts![0]!.text).toBe('hi');
    expect(reloaded!.events[0]!.content!.parts![0]!.text).toBe('hi');
  });

  it('TC-13: an event with temp: keys is listed as given, so the invocation still sees them', async () => {
    const service = new InMemorySessionService();
    const session = await service.createSession(key);
    const given = createEvent({ invocationId: 'i', author: 'user', actions: { stateDelta: { 'temp:handle': () => 1, kept: 1 } } });
    await service.appendEvent(session, given);
    expect(session.events.at(-1)).toBe(given);
    const reloaded = await service.getSession({ ...key, sessionId: session.id });
    expect(reloaded!.events[0]!.actions.stateDelta).toEqual({ kept: 1 });
  });
});

// #24: sessions are kept by app, then user, then id (no key string joined per read and append).
describe('InMemorySessionService: sessions kept by app, user and id', () => {
  it('keeps apart keys that a joined key would mix up (names holding the NUL character the join used), and prototype names', async () => {
    const service = new InMemorySessionService();
    const keys = [
      { appName: 'a\u0000b', userId: 'c', sessionId: 's' },
      { appName: 'a', userId: 'b\u0000c', sessionId: 's' },
      { appName: 'a', userId: 'b', sessionId: 'c\u0000s' },
      { appName: 'a\u0000b\u0000c', userId: '', sessionId: 's' },
      // Names that are keys of every object: a map takes them as any other.
      { appName: '__proto__', userId: 'constructor', sessionId: 'toString' },
      { appName: 'a', userId: '__proto__', sessionId: 'hasOwnProperty' },
    ];
    for (const [i, key] of keys.entries()) await service.createSession({ ...key, state: { n: i, 'user:u': i, 'app:a': i } });
    for (const [i, key] of keys.entries()) {
      const session = await service.getSession(key);
      expect(session?.state, JSON.stringify(key)).toMatchObject({ n: i, 'user:u': i });
      await service.appendEvent(session!, createEvent({ invocationId: 'i', author: 'user', actions: { stateDelta: { appended: i } } }));
    }
    for (const [i, key] of keys.entries()) expect((await service.getSession(key))!.state.appended).toBe(i);
    await service.deleteSession(keys[0]!);
    expect(await service.getSession(keys[0]!)).toBeUndefined();
    for (const key of keys.slice(1)) expect(await service.getSession(key)).toBeDefined();
  });

  it("lists every user's sessions of an app in the order they were created, and one user's in theirs", async () => {
    const service = new InMemorySessionService();
    const made = ['ada', 'bob', 'ada', 'cy', 'bob', 'ada'].map((userId, i) => ({ appName: 'app', userId, sessionId: `s${i}` }));
    for (const key of made) await service.createSession(key);
    await service.createSession({ appName: 'other', userId: 'ada', sessionId: 'elsewhere' });
    // An append changes a session's version, not its place.
    const first = await service.getSession(made[0]!);
    await service.appendEvent(first!, createEvent({ invocationId: 'i', author: 'user' }));
    expect((await service.listSessions({ appName: 'app' })).map((session) => session.id)).toEqual(['s0', 's1', 's2', 's3', 's4', 's5']);
    expect((await service.listSessions({ appName: 'app', userId: 'ada' })).map((session) => session.id)).toEqual(['s0', 's2', 's5']);
    // Deleting every session of a user and of an app leaves nothing listed, and they can start again.
    for (const key of made.filter((key) => key.userId === 'bob')) await service.deleteSession(key);
    expect((await service.listSessions({ appName: 'app', userId: 'bob' })).map((session) => session.id)).toEqual([]);
    await service.deleteSession({ appName: 'other', userId: 'ada', sessionId: 'elsewhere' });
    expect(await service.listSessions({ appName: 'other' })).toEqual([]);
    await service.createSession({ appName: 'other', userId: 'ada', sessionId: 'elsewhere' });
    expect((await service.listSessions({ appName: 'other' })).map((session) => session.id)).toEqual(['elsewhere']);
    expect((await service.listSessions({ appName: 'app' })).map((session) => session.id)).toEqual(['s0', 's2', 's3', 's5']);
  });
});
