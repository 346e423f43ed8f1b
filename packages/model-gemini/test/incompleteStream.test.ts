// Issue 9, point 13: a stream that ends early is an error, never a half-received answer that
// looks complete and never a call built from partial arguments. Bad input tried: copies of recorded
// streams cut while a Vertex call's arguments were still streaming (`willContinue`), cut after a
// whole-looking call or mid-answer with no finish reason (also after an earlier chunk's STOP), a
// connection destroyed mid-stream and before the first chunk; and the same through the flow.
import { InMemoryRunner, LlmAgent, createLlmRequest, createUserContent, getFunctionCalls, type Event, type RunnableTool } from '@adkit/flow';
import { fixtureRequestBody, startReplayServer, truncatedFixture, type ReplayServer } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, geminiAt } from './helpers.js';

let server: ReplayServer;
afterEach(async () => {
  server.assertDone();
  await server.close();
});

const hello = createLlmRequest({ contents: [createUserContent('What is the weather in New York?')] });
const incomplete = (model: string, how: string) => ({
  errorCode: 'INCOMPLETE_STREAM',
  errorMessage: `The Gemini stream for model "${model}" ${how}; the answer is incomplete, so it was dropped.`,
});
const vertex = 'gemini-vertex--partial-function-call-args-stream.sse';
const stillStreaming = 'ended while the arguments of the call to "getCurrentWeather" were still streaming (willContinue)';

describe('issue 9: Gemini streams that end early', () => {
  it.each([
    ['mid-arguments', 5],
    ['after every argument, before the closing chunk and its finish reason', 9],
  ])('a Vertex call cut %s (willContinue pending) → INCOMPLETE_STREAM, no call', async (_label, events) => {
    server = await startReplayServer({ script: [truncatedFixture(vertex, events)] });
    expect(await collect(geminiAt(server, 'gemini-3-pro-preview'), hello, true)).toEqual([incomplete('gemini-3-pro-preview', stillStreaming)]);
  });

  it('a whole-looking call with no finish reason after it → INCOMPLETE_STREAM, no call', async () => {
    server = await startReplayServer({ script: [truncatedFixture('gemini--function-call-thought-signature-stream.1.sse', 1)] });
    expect(await collect(geminiAt(server, 'gemini-2.5-flash'), hello, true)).toEqual([
      incomplete('gemini-2.5-flash', 'ended after 1 chunk without a finish reason'),
    ]);
  });

  it('an answer cut mid-text after an earlier chunk’s STOP (the server-side call’s) → the text streamed, then INCOMPLETE_STREAM', async () => {
    server = await startReplayServer({ script: [truncatedFixture('gemini--server-side-mcp-tool-stream.sse', 4)] });
    const responses = await collect(geminiAt(server, 'gemini-2.5-flash'), hello, true);
    expect(responses.filter((r) => r.partial).map((r) => r.content!.parts![0]!.text)).toEqual([
      'Here',
      "'s the hourly weather forecast for San Francisco on February 2nd, 20",
    ]);
    expect(responses.filter((r) => !r.partial)).toEqual([incomplete('gemini-2.5-flash', 'ended after 4 chunks without a finish reason')]);
  });

  it('the server destroys the connection mid-stream → INCOMPLETE_STREAM naming the socket error', async () => {
    server = await startReplayServer({ script: [{ fixture: vertex, destroyAfterEvents: 5 }] });
    expect(await collect(geminiAt(server, 'gemini-3-pro-preview'), hello, true)).toEqual([
      incomplete('gemini-3-pro-preview', 'broke off after 5 chunks (terminated: other side closed)'),
    ]);
  });

  it('the connection is destroyed before the first chunk → EMPTY_RESPONSE', async () => {
    server = await startReplayServer({ script: [{ fixture: vertex, destroyAfterEvents: 0 }] });
    expect(await collect(geminiAt(server, 'gemini-3-pro-preview'), hello, true)).toEqual([
      {
        errorCode: 'EMPTY_RESPONSE',
        errorMessage: 'Gemini returned no answer for model "gemini-3-pro-preview": the stream broke off before any chunk (terminated: other side closed).',
      },
    ]);
  });

  it('a prompt blocked in a stream (no candidates, no finish reason) is still the block, not an incomplete stream', async () => {
    server = await startReplayServer({
      script: [{ endpoint: ':streamGenerateContent', sse: [{ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, modelVersion: 'gemini-2.5-flash' }] }],
    });
    expect(await collect(geminiAt(server, 'gemini-2.5-flash'), hello, true)).toEqual([
      { errorCode: 'PROHIBITED_CONTENT', errorMessage: 'Gemini blocked the prompt (PROHIBITED_CONTENT).', modelVersion: 'gemini-2.5-flash' },
    ]);
  });
});

describe('issue 9: through the flow', () => {
  it('a Vertex call cut mid-arguments reaches the client as an error event, and the tool never runs', async () => {
    server = await startReplayServer({ script: [truncatedFixture(vertex, 9)] });
    const recorded = fixtureRequestBody(vertex) as { tools: Array<{ functionDeclarations: Array<{ name: string }> }> };
    const ran: unknown[] = [];
    const tool: RunnableTool = {
      name: 'getCurrentWeather',
      description: 'The weather.',
      declaration: () => ({ ...recorded.tools[0]!.functionDeclarations[0]!, name: 'getCurrentWeather' }),
      run: async (_ctx, args) => {
        ran.push(args);
        return { result: 'sunny' };
      },
    };
    const agent = new LlmAgent({ name: 'weather', model: geminiAt(server, 'gemini-3-pro-preview'), tools: [tool] });
    const runner = new InMemoryRunner({ agent, appName: 'cut', autoCreateSession: true });
    const events: Event[] = [];
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: 's',
      newMessage: createUserContent('What is the weather in New York?'),
      runConfig: { streamingMode: 'sse' },
    }))
      events.push(event);
    // The call was shown forming (#30: partial tool-call deltas, never saved), then the stream's error.
    const forming = events.filter((e) => e.toolCallDelta);
    expect(forming.length).toBeGreaterThan(0);
    expect(forming.every((e) => e.partial === true && getFunctionCalls(e).length === 0)).toBe(true);
    expect(events.filter((e) => !e.toolCallDelta).map((e) => ({ author: e.author, errorCode: e.errorCode, errorMessage: e.errorMessage, calls: getFunctionCalls(e).length }))).toEqual([
      { author: 'weather', ...incomplete('gemini-3-pro-preview', stillStreaming), calls: 0 },
    ]);
    expect(ran).toEqual([]);
    expect(server.requests).toHaveLength(1);
    const session = await runner.sessionService.getSession({ appName: 'cut', userId: 'u', sessionId: 's' });
    expect(session!.events.filter((e) => getFunctionCalls(e).length > 0)).toEqual([]);
    expect(session!.events.filter((e) => e.toolCallDelta || e.partial)).toEqual([]);
  });
});
