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
