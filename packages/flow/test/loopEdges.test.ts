// FL-6 edges of the agent loop and progress reports: thought-only turns loop again, a model that
// only streams partial chunks stops the loop, maxLlmCalls bounds an invocation, and any tool can
// report progress as partial events tagged with its call id.
import { describe, expect, it } from 'vitest';
import { InMemoryRunner, LlmAgent, createUserContent, type Event, type LlmResponse } from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool, runOnce } from './support.js';

describe('the agent loop', () => {
  it('FL-6: a thought-only turn is not an answer; the model is called again', async () => {
    const thought: LlmResponse = { content: { role: 'model', parts: [{ text: 'planning…', thought: true }] } };
    const model = new ScriptedModel([thought, textResponse('answer')]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model }), 'q');
    expect(events.map((e) => e.content?.parts?.[0]?.text)).toEqual(['planning…', 'answer']);
  });

  it('FL-6: a model that yields only partial chunks ends the loop instead of spinning', async () => {
    const model = {
      model: 'chunks-only',
      calls: 0,
      async *generateContent() {
        this.calls++;
        yield { ...textResponse('half'), partial: true };
      },
    };
    const { events } = await runOnce(new LlmAgent({ name: 'a', model }), 'q');
    expect(events.map((e) => e.partial)).toEqual([true]);
    expect(model.calls).toBe(1);
  });

  it('maxLlmCalls bounds an invocation with a clear error event', async () => {
    const loop = rawTool('again', () => ({ ok: true }));
    const model = new ScriptedModel(Array.from({ length: 5 }, () => functionCallResponse([{ name: 'again' }])));
    const agent = new LlmAgent({ name: 'a', model, tools: [loop] });
    const runner = new InMemoryRunner({ agent, autoCreateSession: true });
    const events: Event[] = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go'), runConfig: { maxLlmCalls: 2 } }))
      events.push(e);
    expect(model.requests).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({
      errorCode: 'LLM_CALLS_LIMIT_EXCEEDED',
      errorMessage: 'The invocation reached its limit of 2 model calls; raise runConfig.maxLlmCalls if this is expected.',
    });
  });
});

describe('progress reports', () => {
  it('any tool reports progress: partial events with its call id, never saved, before its response', async () => {
    const work = rawTool('index_files', async (_args, ctx) => {
      ctx.reportProgress({ message: 'scanning', fraction: 0.5 });
      ctx.reportProgress({ fraction: 1 });
      return { files: 3 };
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'index_files', id: 'job' }]), textResponse('indexed')]);
    const { events, runner, sessionId } = await runOnce(new LlmAgent({ name: 'a', model, tools: [work] }), 'go');
    expect(events.map((e) => (e.partial ? 'progress' : e.content?.parts?.[0]?.functionResponse ? 'response' : 'other'))).toEqual([
      'other',
      'progress',
      'progress',
      'response',
      'other',
    ]);
    expect(events.filter((e) => e.partial).map((e) => e.toolProgress)).toEqual([
      { functionCallId: 'job', toolName: 'index_files', message: 'scanning', fraction: 0.5 },
      { functionCallId: 'job', toolName: 'index_files', fraction: 1 },
    ]);
    expect(JSON.parse(JSON.stringify(events[1]))).toEqual(events[1]);
    const session = await runner.sessionService.getSession({ appName: 'test', userId: 'u', sessionId });
    expect(session!.events.some((e) => e.toolProgress)).toBe(false);
  });
});
