// Issue 9, point 13: a stream that ends early is an error, never a half-received answer that
// looks complete and never a call built from partial arguments. Bad input tried: copies of recorded
// streams cut before the finish reason / `response.completed` (with the call's arguments whole, and
// cut mid-arguments), a connection destroyed mid-stream and before the first event, a
// `response.incomplete` whose call was cut at max_output_tokens; and the same through the flow.
import { InMemoryRunner, LlmAgent, createLlmRequest, createUserContent, getFunctionCalls, type Event, type RunnableTool } from '@adkit/flow';
import { fixtureText, splitSseEvents, startReplayServer, truncatedFixture, type ReplayServer } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, openaiAt } from './helpers.js';

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

const incomplete = (model: string, how: string) => ({
  errorCode: 'INCOMPLETE_STREAM',
  errorMessage: `The OpenAI stream for model "${model}" ${how}; the answer is incomplete, so it was dropped.`,
});

describe('issue 9: Chat Completions streams that end early', () => {
  it('cut after the whole arguments but before the finish reason (and [DONE]) → INCOMPLETE_STREAM, no call', async () => {
    server = await startReplayServer({ script: [truncatedFixture('openai-chat--tool-call-stream.1.sse', 6)] });
    const responses = await collect(openaiAt(server, 'gpt-4o-mini'), request, true);
    expect(responses).toEqual([incomplete('gpt-4o-mini', 'ended after 6 events without a finish reason')]);
  });

  it('cut mid-arguments → INCOMPLETE_STREAM, not MALFORMED_FUNCTION_CALL', async () => {
    server = await startReplayServer({ script: [truncatedFixture('openai-chat--tool-call-stream.1.sse', 3)] });
    expect(await collect(openaiAt(server, 'gpt-4o-mini'), request, true)).toEqual([
      incomplete('gpt-4o-mini', 'ended after 3 events without a finish reason'),
    ]);
  });

  it('a text answer cut mid-sentence: the partial text was streamed, the final response is the error', async () => {
    server = await startReplayServer({ script: [truncatedFixture('openai-chat--tool-call-stream.2.sse', 5)] });
    const responses = await collect(openaiAt(server, 'gpt-4o-mini'), request, true);
    expect(responses.filter((r) => r.partial).map((r) => r.content!.parts![0]!.text)).toEqual(['The', ' capital', ' of', ' the']);
    expect(responses.filter((r) => !r.partial)).toEqual([incomplete('gpt-4o-mini', 'ended after 5 events without a finish reason')]);
  });

  it('cut after the finish reason, before the usage chunk and [DONE]: the answer is whole (the SDK consumes [DONE] itself)', async () => {
    server = await startReplayServer({ script: [truncatedFixture('openai-chat--tool-call-stream.1.sse', 7)] });
    const [response] = await collect(openaiAt(server, 'gpt-4o-mini'), request, true);
    expect(response).toEqual({
      content: { role: 'model', parts: [{ functionCall: { id: 'call_ZR5UUuTt3pf61kjwAJIYdVMj', name: 'get_capital', args: { country: 'UK' } } }] },
      finishReason: 'STOP',
      modelVersion: 'gpt-4o-mini-2024-07-18',
    });
  });

  it('the server destroys the connection mid-stream → INCOMPLETE_STREAM naming the socket error', async () => {
    server = await startReplayServer({ script: [{ fixture: 'openai-chat--tool-call-stream.1.sse', destroyAfterEvents: 6 }] });
    expect(await collect(openaiAt(server, 'gpt-4o-mini', { maxRetries: 0 }), request, true)).toEqual([
      incomplete('gpt-4o-mini', 'broke off after 6 events (terminated: other side closed)'),
    ]);
  });

  it('the connection is destroyed before the first event → EMPTY_RESPONSE', async () => {
    server = await startReplayServer({ script: [{ fixture: 'openai-chat--tool-call-stream.1.sse', destroyAfterEvents: 0 }] });
    expect(await collect(openaiAt(server, 'gpt-4o-mini', { maxRetries: 0 }), request, true)).toEqual([
      {
        errorCode: 'EMPTY_RESPONSE',
        errorMessage: 'OpenAI returned no answer for model "gpt-4o-mini": the stream broke off before any event (terminated: other side closed).',
      },
    ]);
  });
});

describe('issue 9: Responses API streams that end early', () => {
  it('every item finished but no response.completed → INCOMPLETE_STREAM, no call', async () => {
    server = await startReplayServer({ script: [truncatedFixture('openai-responses--function-call-stream.sse', 10)] });
    expect(await collect(openaiAt(server, 'gpt-4o', { api: 'responses' }), request, true)).toEqual([
      incomplete('gpt-4o', 'ended after 10 events without response.completed'),
    ]);
  });

  it('cut mid-arguments → INCOMPLETE_STREAM', async () => {
    server = await startReplayServer({ script: [truncatedFixture('openai-responses--function-call-stream.sse', 5)] });
    expect(await collect(openaiAt(server, 'gpt-4o', { api: 'responses' }), request, true)).toEqual([
      incomplete('gpt-4o', 'ended after 5 events without response.completed'),
    ]);
  });

  it('text, then a finished call, then no response.completed: the text streamed, the final response is the error', async () => {
    server = await startReplayServer({ script: [truncatedFixture('openai-responses--text-then-function-call-stream.1.sse', 32)] });
    const responses = await collect(openaiAt(server, 'gpt-4o', { api: 'responses' }), request, true);
    expect(responses.filter((r) => r.partial).length).toBe(13);
    expect(responses.filter((r) => !r.partial)).toEqual([incomplete('gpt-4o', 'ended after 32 events without response.completed')]);
  });

  it('the server destroys the connection mid-stream → INCOMPLETE_STREAM', async () => {
    server = await startReplayServer({ script: [{ fixture: 'openai-responses--function-call-stream.sse', destroyAfterEvents: 7 }] });
    expect(await collect(openaiAt(server, 'gpt-4o', { api: 'responses', maxRetries: 0 }), request, true)).toEqual([
      incomplete('gpt-4o', 'broke off after 7 events (terminated: other side closed)'),
    ]);
  });

  it('response.incomplete (max_output_tokens) with a call cut mid-arguments → INCOMPLETE_FUNCTION_CALL, no call', async () => {
    const events = splitSseEvents(fixtureText('openai-responses--function-call-stream.sse')).slice(0, 5);
    const created = JSON.parse(events[0]!.split('data: ')[1]!) as { response: Record<string, unknown> };
    const cutOff = {
      type: 'response.incomplete',
      response: {
        ...created.response,
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
        output: [
          {
            type: 'function_call',
            id: 'fc_67e554a1de488191af0831d35cbe082e0794405d35281ae2',
            call_id: 'call_kL0PCQV7M2WMoVX8V8OtYSAL',
            name: 'get_capital',
            arguments: '{"country',
            status: 'incomplete',
          },
        ],
      },
    };
    server = await startReplayServer({
      script: [{ endpoint: '/responses', body: `${events.join('')}event: response.incomplete\ndata: ${JSON.stringify(cutOff)}\n\n`, contentType: 'text/event-stream' }],
    });
    expect(await collect(openaiAt(server, 'gpt-4o', { api: 'responses' }), request, true)).toEqual([
      {
        finishReason: 'MAX_TOKENS',
        modelVersion: 'gpt-4o-2024-08-06',
        errorCode: 'INCOMPLETE_FUNCTION_CALL',
        errorMessage: 'The model\'s call to "get_capital" was cut off (status "incomplete") before its arguments were complete, so it was not run.',
      },
    ]);
  });
});

describe('issue 9: through the flow', () => {
  it.each([
    ['chat', truncatedFixture('openai-chat--tool-call-stream.1.sse', 6), 'ended after 6 events without a finish reason'],
    ['responses', truncatedFixture('openai-responses--function-call-stream.sse', 10), 'ended after 10 events without response.completed'],
  ] as const)('%s: a cut stream reaches the client as an error event, and the tool never runs', async (api, step, how) => {
    server = await startReplayServer({ script: [step] });
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
    const agent = new LlmAgent({ name: 'geo', model: openaiAt(server, 'gpt-4o', { api }), tools: [tool] });
    const runner = new InMemoryRunner({ agent, appName: 'cut', autoCreateSession: true });
    const events: Event[] = [];
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: 's',
      newMessage: createUserContent('What is the capital of the UK?'),
      runConfig: { streamingMode: 'sse' },
    }))
      events.push(event);
    // The call was shown forming (#30: partial tool-call deltas, never saved), then the stream's error.
    const forming = events.filter((e) => e.toolCallDelta);
    expect(forming.length).toBeGreaterThan(0);
    expect(forming.every((e) => e.partial === true && getFunctionCalls(e).length === 0)).toBe(true);
    expect(events.filter((e) => !e.toolCallDelta).map((e) => ({ author: e.author, errorCode: e.errorCode, errorMessage: e.errorMessage, calls: getFunctionCalls(e).length }))).toEqual([
      { author: 'geo', ...incomplete('gpt-4o', how), calls: 0 },
    ]);
    expect(ran).toEqual([]);
    expect(server.requests).toHaveLength(1);
    const session = await runner.sessionService.getSession({ appName: 'cut', userId: 'u', sessionId: 's' });
    expect(session!.events.filter((e) => getFunctionCalls(e).length > 0)).toEqual([]);
    expect(session!.events.filter((e) => e.toolCallDelta || e.partial)).toEqual([]);
  });
});
