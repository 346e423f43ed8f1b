// #30 point 2: tool-call arguments as they stream. Both OpenAI APIs send argument fragments; the
// adapter yields each call as it grows as a partial response `{partial: true, toolCallDelta:
// {index, functionCallId, name, argsTextSoFar}}`, through the real SDK against the replay server,
// then the complete call as before. A delta is never a call: a stream cut mid-arguments yields
// the deltas it had and INCOMPLETE_STREAM, no function call; through the flow, the deltas are
// partial events, yielded and never saved.
import { InMemoryRunner, LlmAgent, createLlmRequest, createUserContent, getFunctionCalls, type Event, type LlmResponse, type RunnableTool } from '@adkit/flow';
import { startReplayServer, truncatedFixture, type ReplayServer } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { collectAll, openaiAt } from './helpers.js';

let server: ReplayServer;
afterEach(async () => {
  server.assertDone();
  await server.close();
});

const capitalTool = {
  name: 'get_capital',
  description: '',
  parametersJsonSchema: { type: 'object', properties: { country: { type: 'string' } }, required: ['country'] },
};
const request = createLlmRequest({ contents: [createUserContent('What is the capital of the UK?')], config: { tools: [{ functionDeclarations: [capitalTool] }] } });
const deltasOf = (responses: LlmResponse[]) => responses.filter((r) => r.toolCallDelta).map((r) => r.toolCallDelta!);

const chatCall = (argsTextSoFar: string) => ({ index: 0, functionCallId: 'call_ZR5UUuTt3pf61kjwAJIYdVMj', name: 'get_capital', argsTextSoFar });
const responsesCall = (argsTextSoFar: string) => ({ index: 0, functionCallId: 'call_kL0PCQV7M2WMoVX8V8OtYSAL', name: 'get_capital', argsTextSoFar });

describe('#30: OpenAI tool-call deltas', () => {
  it('Chat Completions: each fragment yields the call so far (id, name, text), partial and without content; then the complete call', async () => {
    server = await startReplayServer({ script: ['openai-chat--tool-call-stream.1.sse'] });
    const responses = await collectAll(openaiAt(server, 'gpt-4o-mini'), request, true);
    expect(responses.slice(0, -1)).toEqual(
      ['', '{"', '{"country', '{"country":"', '{"country":"UK', '{"country":"UK"}'].map((text) => ({ partial: true, toolCallDelta: chatCall(text) })),
    );
    expect(responses.at(-1)!.content!.parts).toEqual([{ functionCall: { id: 'call_ZR5UUuTt3pf61kjwAJIYdVMj', name: 'get_capital', args: { country: 'UK' } } }]);
  });

  it('Responses API: deltas carry the call_id and name announced by output_item.added', async () => {
    server = await startReplayServer({ script: ['openai-responses--function-call-stream.sse'] });
    const responses = await collectAll(openaiAt(server, 'gpt-4o', { api: 'responses' }), request, true);
    expect(deltasOf(responses)).toEqual(['{"', '{"country', '{"country":"', '{"country":"France', '{"country":"France"}'].map(responsesCall));
    expect(responses.filter((r) => r.toolCallDelta).every((r) => r.partial === true && r.content === undefined)).toBe(true);
    expect(getFunctionCalls({ content: responses.at(-1)!.content } as Event)).toEqual([{ id: 'call_kL0PCQV7M2WMoVX8V8OtYSAL', name: 'get_capital', args: { country: 'France' } }]);
  });

  it('a stream cut mid-arguments yields the deltas it had, then INCOMPLETE_STREAM; no response carries a call', async () => {
    for (const [fixture, events, api] of [
      ['openai-chat--tool-call-stream.1.sse', 4, 'chat'],
      ['openai-responses--function-call-stream.sse', 6, 'responses'],
    ] as const) {
      server = await startReplayServer({ script: [truncatedFixture(fixture, events)] });
      const responses = await collectAll(openaiAt(server, 'gpt-4o', { api }), request, true);
      expect(deltasOf(responses).length).toBeGreaterThan(0);
      expect(responses.some((r) => r.content?.parts?.some((part) => part.functionCall))).toBe(false);
      expect(responses.at(-1)!.errorCode).toBe('INCOMPLETE_STREAM');
      server.assertDone();
      await server.close();
    }
    server = await startReplayServer();
  });

  it('no deltas without streaming', async () => {
    server = await startReplayServer({ script: ['openai-chat--tool-call.1.json'] });
    const responses = await collectAll(openaiAt(server, 'gpt-4o'), request, false);
    expect(deltasOf(responses)).toEqual([]);
  });

  it('through the flow: the deltas are partial events the client sees, the tool runs once from the complete call, nothing partial is saved', async () => {
    server = await startReplayServer({ script: ['openai-chat--tool-call-stream.1.sse', 'openai-chat--tool-call-stream.2.sse'] });
    const ran: unknown[] = [];
    const tool: RunnableTool = {
      name: 'get_capital',
      description: 'The capital of a country.',
      declaration: () => capitalTool,
      run: async (_ctx, args) => {
        ran.push(args);
        return { result: 'London' };
      },
    };
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'geo', model: openaiAt(server, 'gpt-4o-mini'), tools: [tool] }), appName: 'a', autoCreateSession: true });
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('Capital of the UK?'), runConfig: { streamingMode: 'sse' } }))
      events.push(event);
    const forming = events.filter((e) => e.toolCallDelta);
    expect(forming.map((e) => e.toolCallDelta!.argsTextSoFar).at(-1)).toBe('{"country":"UK"}');
    expect(forming.every((e) => e.partial === true && e.author === 'geo' && getFunctionCalls(e).length === 0)).toBe(true);
    expect(ran).toEqual([{ country: 'UK' }]);
    const session = await runner.sessionService.getSession({ appName: 'a', userId: 'u', sessionId: 's' });
    expect(session!.events.some((e) => e.toolCallDelta || e.partial)).toBe(false);
    expect(JSON.parse(JSON.stringify(forming[0]))).toEqual(forming[0]);
  });
});
