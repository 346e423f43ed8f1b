// The runner: events are appended before they are yielded (principle 2), sessions must exist,
// plugins wrap the run, and a message with function responses goes to the agent that asked.
import { describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  InMemorySessionService,
  LlmAgent,
  Runner,
  SequentialAgent,
  createUserContent,
  isAdkitError,
  type Event,
  type Plugin,
  type Session,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool } from './support.js';

describe('Runner', () => {
  it('principle 2: appends each complete event to the session before yielding it', async () => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel([functionCallResponse([{ name: 't' }]), textResponse('done')]);
    const agent = new LlmAgent({ name: 'a', model, tools: [rawTool('t', () => ({ ok: 1 }))] });
    const runner = new Runner({ appName: 'app', agent, sessionService });
    await sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const savedWhenYielded: number[] = [];
    for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('hi') })) {
      const session = await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
      expect(session!.events.at(-1)!.id).toBe(event.id);
      savedWhenYielded.push(session!.events.length);
    }
    expect(savedWhenYielded).toEqual([2, 3, 4]);
    const saved = await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(saved!.events.map((e) => e.author)).toEqual(['user', 'a', 'a', 'a']);
    expect(saved!.events[0]!.content).toEqual(createUserContent('hi'));
    expect(new Set(saved!.events.map((e) => e.invocationId)).size).toBe(1);
  });

  it('saves the stateDelta sent with the user message', async () => {
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model: new ScriptedModel([textResponse('ok')]) }), appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('hi'), stateDelta: { 'user:lang': 'fr' } }));
    const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(session!.state).toEqual({ 'user:lang': 'fr' });
  });

  it('fails clearly for a missing session, and creates it with autoCreateSession', async () => {
    const agent = new LlmAgent({ name: 'a', model: new ScriptedModel([textResponse('ok')]) });
    const runner = new InMemoryRunner({ agent, appName: 'app' });
    const attempt = async () => {
      for await (const _ of runner.runAsync({ userId: 'u', sessionId: 'nope', newMessage: createUserContent('hi') }));
    };
    const error = await attempt().catch((e: unknown) => e);
    expect(isAdkitError(error)).toBe(true);
    expect((error as Error).message).toBe(
      'Session "nope" not found for app "app" and user "u"; create it first with sessionService.createSession({appName, userId, sessionId}), or pass autoCreateSession: true to the Runner.',
    );
    const auto = new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true });
    const events: Event[] = [];
    for await (const event of auto.runAsync({ userId: 'u', sessionId: 'new', newMessage: createUserContent('hi') })) events.push(event);
    expect(events.map((e) => e.content?.parts?.[0]?.text)).toEqual(['ok']);
  });

  it('plugins: beforeRun content ends the run at once; onEvent replaces events; afterRun runs last', async () => {
    const log: string[] = [];
    const shortCircuit: Plugin = { name: 'gate', beforeRunCallback: () => ({ role: 'model', parts: [{ text: 'closed today' }] }) };
    const model = new ScriptedModel([textResponse('open')]);
    const agent = new LlmAgent({ name: 'a', model });
    const gated = new InMemoryRunner({ agent, appName: 'app', plugins: [shortCircuit], autoCreateSession: true });
    const gatedEvents: Event[] = [];
    for await (const e of gated.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('hi') })) gatedEvents.push(e);
    expect(gatedEvents.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([['model', 'closed today']]);
    expect(model.requests).toHaveLength(0);

    const rewriting: Plugin = {
      name: 'rewrite',
      beforeRunCallback: () => void log.push('beforeRun'),
      onEventCallback: ({ event }) => ({ ...event, customMetadata: { seen: true } }),
      afterRunCallback: () => void log.push('afterRun'),
    };
    const runner = new InMemoryRunner({ agent, appName: 'app', plugins: [rewriting], autoCreateSession: true });
    const events: Event[] = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('hi') })) {
      log.push('event');
      events.push(e);
    }
    expect(log).toEqual(['beforeRun', 'event', 'afterRun']);
    expect(events[0]!.customMetadata).toEqual({ seen: true });
    const session = (await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' })) as Session;
    expect(session.events.at(-1)!.customMetadata).toEqual({ seen: true });
  });

  it('refuses two plugins with the same name', () => {
    const agent = new LlmAgent({ name: 'a' });
    expect(() => new InMemoryRunner({ agent, plugins: [{ name: 'p' }, { name: 'p' }] })).toThrow(
      'Two plugins are named "p"; plugin names must be unique.',
    );
  });

  it('leaving a for-await early releases the run; the session keeps what was yielded', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 't' }]), textResponse('done')]);
    const runner = new InMemoryRunner({
      agent: new LlmAgent({ name: 'a', model, tools: [rawTool('t', () => ({}))] }),
      appName: 'app',
      autoCreateSession: true,
    });
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('hi') })) break;
    const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(session!.events).toHaveLength(2);
    expect(model.requests).toHaveLength(1);
  });

  it('close() closes every toolset in the agent tree once and reports failures', async () => {
    const closed: string[] = [];
    const toolset = (name: string, fail = false) => ({
      name,
      tools: async () => [],
      close: async () => {
        closed.push(name);
        if (fail) throw new Error('socket already closed');
      },
    });
    const shared = toolset('shared');
    const tree = new SequentialAgent({
      name: 'root',
      subAgents: [new LlmAgent({ name: 'a', toolsets: [shared] }), new LlmAgent({ name: 'b', tools: [shared, toolset('bad', true)] })],
    });
    const runner = new InMemoryRunner({ agent: tree });
    const failure = await runner.close().then(
      () => undefined,
      (error: unknown) => error,
    );
    // #9 point 14: not a SessionError; checked by code.
    expect(failure).toMatchObject({ code: 'CLOSE_ERROR', message: 'Closing tools failed: bad: socket already closed' });
    expect(isAdkitError(failure)).toBe(true);
    expect(closed.sort()).toEqual(['bad', 'shared']);
  });
});
