// devUiPlugin on a real InMemoryRunner with the scripted test agent: the timeline it records
// (parallel calls overlap, a confirmation's wait and the re-run on one call id, a long-running
// call's wait, a failing tool), the model request it keeps, its memory limits, and that it never
// reads the run's context nor breaks a run. Bad input tried: a run context that records every
// property read, a listener that throws, option values that are not positive integers, more
// sessions, turns and calls than the limits.
import { createConfirmationReply, pendingConfirmations } from '@adkit/confirmation';
import { InMemoryRunner, createUserContent, getFunctionCalls, isAdkitError, type Content, type RunContext } from '@adkit/flow';
import { describe, expect, it } from 'vitest';
import { devUiPlugin, isDevUiPlugin, recorderOf } from '../src/devUiPlugin.js';
import type { TimelineSpan } from '../src/timelineRecorder.js';
import { devAgent } from './devAgent.js';

function setup(options: Parameters<typeof devUiPlugin>[0] = {}) {
  const plugin = devUiPlugin(options);
  const runner = new InMemoryRunner({ agent: devAgent(), appName: 'app', plugins: [plugin], autoCreateSession: true });
  const recorder = recorderOf(plugin)!;
  const ref = (sessionId = 's1') => ({ appName: 'app', userId: 'u', sessionId });
  const send = async (message: Content | string, sessionId = 's1', context?: RunContext) => {
    const newMessage = typeof message === 'string' ? createUserContent(message) : message;
    const events = [];
    for await (const event of runner.runAsync({ userId: 'u', sessionId, newMessage, ...(context ? { context } : {}) })) events.push(event);
    return events;
  };
  const spans = (sessionId = 's1') => recorder.timeline(ref(sessionId)).flatMap((turn) => turn.spans);
  return { plugin, runner, recorder, ref, send, spans };
}

const overlap = (a: TimelineSpan, b: TimelineSpan) => a.start < b.end! && b.start < a.end!;

describe('devUiPlugin', () => {
  it('is a plugin the dev UI finds in a runner\'s plugins', () => {
    const { plugin } = setup();
    expect(plugin.name).toBe('adkit-dev-ui');
    expect(isDevUiPlugin(plugin)).toBe(true);
    expect(isDevUiPlugin({ name: 'other' })).toBe(false);
  });

  it('FL-9: records parallel calls as overlapping spans between two model calls', async () => {
    const { send, spans, recorder, ref } = setup();
    await send('compare trains and planes');
    const recorded = spans();
    expect(recorded.map((s) => [s.kind, s.name])).toEqual([
      ['model', 'assistant'],
      ['tool', 'slow_lookup'],
      ['tool', 'slow_lookup'],
      ['model', 'assistant'],
    ]);
    const [firstModel, a, b, secondModel] = recorded as [TimelineSpan, TimelineSpan, TimelineSpan, TimelineSpan];
    expect(recorded.every((s) => typeof s.end === 'number' && s.end >= s.start)).toBe(true);
    expect(overlap(a, b)).toBe(true);
    expect(a.callId).not.toBe(b.callId);
    expect(firstModel.end!).toBeLessThanOrEqual(Math.min(a.start, b.start));
    expect(secondModel.start).toBeGreaterThanOrEqual(Math.max(a.end!, b.end!));
    expect(recorder.timeline(ref())).toMatchObject([{ index: 1, label: 'compare trains and planes', dropped: 0 }]);
  });

  it('HC-1, HC-7: marks the wait for approval, and the approved call runs again on its id, in the same turn', async () => {
    const { send, spans, runner, recorder, ref } = setup();
    await send('book a trip to Rome');
    const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's1' });
    const [request] = pendingConfirmations(session!.events);
    const waiting = spans().find((s) => s.kind === 'wait')!;
    expect(waiting).toMatchObject({ name: 'book_trip', waitFor: 'approval', callId: request!.originalCall.id });
    expect(waiting.end).toBeUndefined();
    const asked = spans().find((s) => s.kind === 'tool')!;
    expect(asked.error).toBeUndefined(); // asking is not failing
    await send(createConfirmationReply(request!, { confirmed: true }));
    const calls = spans().filter((s) => s.callId === request!.originalCall.id);
    expect(calls.map((s) => s.kind)).toEqual(['tool', 'wait', 'tool']);
    expect(calls[1]!.end).toBeGreaterThanOrEqual(calls[1]!.start);
    expect(calls[2]!.start).toBeGreaterThanOrEqual(calls[1]!.end!);
    expect(recorder.timeline(ref())).toHaveLength(1);
  });

  it('marks a long-running call\'s wait until the client answers it, and a failing tool', async () => {
    const { send, spans } = setup();
    const events = await send('reimburse 480');
    const call = events.flatMap(getFunctionCalls).find((c) => c.name === 'ask_for_approval')!;
    const [tool, wait] = spans().filter((s) => s.callId === call.id);
    expect(wait).toMatchObject({ kind: 'wait', name: 'ask_for_approval', waitFor: 'response' });
    expect(wait!.start).toBe(tool!.end); // it waits once the tool has answered for now
    await send(createUserContent([{ functionResponse: { id: call.id, name: call.name, response: { status: 'approved' } } }]));
    expect(typeof spans().find((s) => s.kind === 'wait')!.end).toBe('number');
    await send('flaky');
    expect(spans().find((s) => s.name === 'flaky')!.error).toBe('the flaky service is down');
  });

  it('#31: a streaming tool (which runs no tool callbacks) is a bar from the model\'s call to its response, with its last chunk as progress', async () => {
    const { send, spans } = setup();
    const events = await send('plan my trip');
    const recorded = spans();
    expect(recorded.map((s) => [s.kind, s.name])).toEqual([
      ['model', 'assistant'],
      ['tool', 'plan_trip'],
      ['model', 'assistant'],
    ]);
    const [firstModel, tool, secondModel] = recorded as [TimelineSpan, TimelineSpan, TimelineSpan];
    const call = events.flatMap(getFunctionCalls).find((c) => c.name === 'plan_trip')!;
    expect(tool).toMatchObject({ callId: call.id, progress: { message: 'Day 3: a museum.\n' } });
    expect(tool.error).toBeUndefined();
    expect(tool.end! - tool.start).toBeGreaterThan(0);
    expect(tool.start).toBeGreaterThanOrEqual(firstModel.end!);
    expect(secondModel.start).toBeGreaterThanOrEqual(tool.end!);
  });

  it('#31: a call to a tool that does not exist is a bar with the error the model got; plain tools still get one bar each', async () => {
    const plugin = devUiPlugin();
    const { ScriptedModel, functionCallResponse, textResponse } = await import('@adkit/flow/testing');
    const { LlmAgent } = await import('@adkit/flow');
    const model = new ScriptedModel([functionCallResponse([{ name: 'no_such_tool', args: {} }, { name: 'get_weather', args: { city: 'Oslo' } }]), textResponse('ok')]);
    const agent = new LlmAgent({ name: 'assistant', model, tools: devAgent().tools });
    const runner = new InMemoryRunner({ agent, appName: 'app', plugins: [plugin], autoCreateSession: true });
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: createUserContent('go') }));
    const recorded = recorderOf(plugin)!.timeline({ appName: 'app', userId: 'u', sessionId: 's1' }).flatMap((turn) => turn.spans);
    expect(recorded.map((s) => [s.kind, s.name])).toEqual([
      ['model', 'assistant'],
      ['tool', 'get_weather'],
      ['tool', 'no_such_tool'],
      ['model', 'assistant'],
    ]);
    expect(recorded[2]!.error).toMatch(/no_such_tool/);
    expect(recorded[1]!.error).toBeUndefined();
  });

  it('keeps the request the model last received: instruction, declarations, long-running names', async () => {
    const { send, recorder, ref } = setup();
    await send('weather?');
    const request = recorder.lastRequest(ref())!;
    expect(request.agent).toBe('assistant');
    expect(request.model).toBe('scripted-brain');
    expect(request.systemInstruction).toContain('You help with travel. Today is .');
    expect(request.tools.map((tool) => (tool as { name: string }).name)).toContain('get_weather');
    expect(request.dispatch.filter((d) => d.longRunning).map((d) => d.name)).toEqual(['ask_for_approval']);
    expect(request.contentCount).toBe(3); // the message, the call, the response
  });

  it('never reads the run context', async () => {
    const reads: PropertyKey[] = [];
    const context = new Proxy({}, { get: (target, key, receiver) => (reads.push(key), Reflect.get(target, key, receiver)) });
    const { send, spans } = setup();
    await send('compare', 's1', context as RunContext);
    expect(spans()).toHaveLength(4);
    expect(reads).toEqual([]);
  });

  it('never breaks a run: a listener that throws is ignored', async () => {
    const { send, recorder } = setup();
    recorder.subscribe(() => {
      throw new Error('listener down');
    });
    const events = await send('weather?');
    expect(events.at(-1)!.content!.parts![0]!.text).toContain('Done: get_weather');
    expect(events.some((e) => e.errorCode)).toBe(false);
  });

  it('keeps at most maxSessions sessions, maxTurns turns and maxSpans calls a turn', async () => {
    const { send, recorder, ref } = setup({ maxSessions: 2, maxTurns: 2, maxSpans: 3 });
    for (const id of ['a', 'b', 'c']) await send('hello', id);
    expect(recorder.timeline(ref('a'))).toEqual([]);
    expect(recorder.timeline(ref('c'))).toHaveLength(1);
    for (let i = 0; i < 3; i++) await send(`hello ${i}`, 'c');
    expect(recorder.timeline(ref('c')).map((turn) => turn.label)).toEqual(['hello 1', 'hello 2']);
    await send('compare', 'c');
    const last = recorder.timeline(ref('c')).at(-1)!;
    expect([last.spans.length, last.dropped]).toEqual([3, 1]);
  });

  it('refuses limits that are not positive integers, naming the option', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      let error: unknown;
      try {
        devUiPlugin({ maxTurns: bad });
      } catch (caught) {
        error = caught;
      }
      expect(isAdkitError(error) && error.code).toBe('INVALID_CONFIG');
      expect((error as Error).message).toBe(`devUiPlugin: maxTurns must be a positive integer, got ${bad}.`);
    }
  });
});
