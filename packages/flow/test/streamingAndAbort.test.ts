// Pins FL-12 (streaming tools, with partial progress events beyond ADK), streamed model output,
// and cancellation: the run's AbortSignal aborts tools and the model call, and no event follows.
import { describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  LlmAgent,
  createUserContent,
  getFunctionResponses,
  type Event,
  type StreamingTool,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool, runOnce } from './support.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function streamingTool(name: string, chunks: string[], fail?: string): StreamingTool & { closed: boolean } {
  const tool = {
    name,
    description: 'streams',
    closed: false,
    declaration: () => ({ name, description: 'streams' }),
    async *runStream() {
      try {
        for (const chunk of chunks) {
          await sleep(5);
          yield chunk;
        }
        if (fail) throw new Error(fail);
      } finally {
        tool.closed = true;
      }
    },
  };
  return tool;
}

describe('streaming tools', () => {
  it('FL-12: chunks concatenate into one {result}, each chunk also a partial progress event tagged with the call id', async () => {
    const tool = streamingTool('count', ['one ', 'two ', 'three']);
    const model = new ScriptedModel([functionCallResponse([{ name: 'count', id: 'c1' }]), textResponse('counted')]);
    const { events, runner, sessionId } = await runOnce(new LlmAgent({ name: 'a', model, tools: [tool] }), 'go');
    const progress = events.filter((e) => e.partial);
    expect(progress.map((e) => e.toolProgress)).toEqual([
      { functionCallId: 'c1', toolName: 'count', message: 'one ' },
      { functionCallId: 'c1', toolName: 'count', message: 'two ' },
      { functionCallId: 'c1', toolName: 'count', message: 'three' },
    ]);
    const responses = events.filter((e) => !e.partial).flatMap(getFunctionResponses);
    expect(responses[0]!.response).toEqual({ result: 'one two three' });
    // Partial events are never persisted.
    const session = await runner.sessionService.getSession({ appName: 'test', userId: 'u', sessionId });
    expect(session!.events.some((e) => e.partial)).toBe(false);
    expect(session!.events).toHaveLength(4);
  });

  it('FL-12: the first error wins and earlier chunks are dropped; no tool callbacks run for streams', async () => {
    const tool = streamingTool('count', ['one '], 'sensor offline');
    const log: string[] = [];
    const model = new ScriptedModel([functionCallResponse([{ name: 'count' }]), textResponse('ok')]);
    const agent = new LlmAgent({ name: 'a', model, tools: [tool], beforeToolCallback: () => void log.push('before') });
    const { events } = await runOnce(agent, 'go');
    expect(events.filter((e) => !e.partial).flatMap(getFunctionResponses)[0]!.response).toEqual({ error: 'sensor offline' });
    expect(log).toEqual([]);
    expect(tool.closed).toBe(true);
  });

  it('streamed model output: partial events first, then the aggregate; only the aggregate is saved', async () => {
    const model = new ScriptedModel([[textResponse('Hel'), textResponse('lo')]]);
    const { events, runner, sessionId } = await runOnce(new LlmAgent({ name: 'a', model }), 'go', { streaming: true });
    expect(events.map((e) => [e.partial ?? false, e.content?.parts?.[0]?.text])).toEqual([
      [true, 'Hel'],
      [true, 'lo'],
      [false, 'Hello'],
    ]);
    const session = await runner.sessionService.getSession({ appName: 'test', userId: 'u', sessionId });
    expect(session!.events.map((e) => e.content?.parts?.[0]?.text)).toEqual(['go', 'Hello']);
  });

  it('FL-8: a model event\'s partial events share its id; the next model event, in the next step, has another', async () => {
    const tool = rawTool('t', async () => ({ ok: true }));
    const model = new ScriptedModel([
      [textResponse('Look'), functionCallResponse([{ name: 't', args: {} }])],
      [textResponse('Do'), textResponse('ne')],
    ]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools: [tool] }), 'go', { streaming: true });
    const fromModel = events.filter((e) => e.author === 'a' && !getFunctionResponses(e).length);
    expect(fromModel.map((e) => e.partial ?? false)).toEqual([true, true, false, true, true, false]);
    const [first, second] = [fromModel.slice(0, 3), fromModel.slice(3)];
    expect(new Set(first.map((e) => e.id)).size).toBe(1);
    expect(new Set(second.map((e) => e.id)).size).toBe(1);
    expect(first[0]!.id).not.toBe(second[0]!.id);
    const ids = events.filter((e) => !e.partial).map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length); // every saved event has an id of its own
  });
});

describe('cancellation', () => {
  it('aborting mid-tool aborts the tool signal, and no event follows the abort', async () => {
    const controller = new AbortController();
    let toolSawAbort = false;
    const slow = rawTool('slow', (_args, ctx) => {
      setTimeout(() => controller.abort(), 20);
      return new Promise((resolve) =>
        ctx.signal.addEventListener('abort', () => {
          toolSawAbort = true;
          resolve({ late: true });
        }),
      );
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'slow' }]), textResponse('never')]);
    const agent = new LlmAgent({ name: 'a', model, tools: [slow] });
    const runner = new InMemoryRunner({ agent, appName: 'test' });
    await runner.sessionService.createSession({ appName: 'test', userId: 'u', sessionId: 's' });
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go'), signal: controller.signal }))
      events.push(event);
    expect(toolSawAbort).toBe(true);
    expect(events).toHaveLength(1);
    expect(model.requests).toHaveLength(1);
    const session = await runner.sessionService.getSession({ appName: 'test', userId: 'u', sessionId: 's' });
    expect(session!.events).toHaveLength(2);
  });

  it('calls still queued behind maxToolConcurrency never start once the run is cancelled', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const slow = rawTool('slow', (args, ctx) => {
      started.push(args.n as number);
      setTimeout(() => controller.abort(), 10);
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({})));
    });
    const model = new ScriptedModel([functionCallResponse([1, 2, 3].map((n) => ({ name: 'slow', args: { n } })))]);
    const agent = new LlmAgent({ name: 'a', model, tools: [slow], maxToolConcurrency: 1 });
    const runner = new InMemoryRunner({ agent, appName: 'test', autoCreateSession: true });
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go'), signal: controller.signal }));
    await sleep(30);
    expect(started).toEqual([1]);
  });

  it('aborting during the model call passes the signal to the model and ends the run with nothing more', async () => {
    const controller = new AbortController();
    let modelSignal: AbortSignal | undefined;
    const model = {
      model: 'slow-model',
      async *generateContent(_req: unknown, opts: { signal?: AbortSignal }) {
        modelSignal = opts.signal;
        controller.abort();
        await sleep(5);
        yield textResponse('too late');
      },
    };
    const agent = new LlmAgent({ name: 'a', model });
    const runner = new InMemoryRunner({ agent, appName: 'test', autoCreateSession: true });
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go'), signal: controller.signal }))
      events.push(event);
    expect(modelSignal?.aborted).toBe(true);
    expect(events).toEqual([]);
  });

  it('an already aborted signal runs nothing', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new LlmAgent({ name: 'a', model });
    const runner = new InMemoryRunner({ agent, appName: 'test', autoCreateSession: true });
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go'), signal: AbortSignal.abort() }))
      events.push(event);
    expect(events).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });
});
