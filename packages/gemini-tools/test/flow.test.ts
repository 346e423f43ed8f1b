import { InMemoryRunner, LlmAgent, createUserContent, type Event, type LlmRequest, type LlmResponse, type Model } from '@adkit/flow';
import { gemini } from '@adkit/model-gemini';
import { fixtureJson, startReplayServer, type ReplayServer } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { codeExecution, googleSearch } from '../src/index.js';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(agent: LlmAgent, text: string, streaming: boolean): Promise<Event[]> {
  const runner = new InMemoryRunner({ agent, appName: 'grounding', autoCreateSession: true });
  const events: Event[] = [];
  for await (const event of runner.runAsync({
    userId: 'u',
    sessionId: 's',
    newMessage: createUserContent(text),
    runConfig: { streamingMode: streaming ? 'sse' : 'none' },
  }))
    events.push(event);
  return events;
}

describe('grounding metadata reaches the event (Gemini adapter, recorded traffic)', () => {
  it('generateContent: the final event carries groundingMetadata; the request carried {googleSearch: {}}', async () => {
    server = await startReplayServer({ script: ['gemini--google-search-grounding.json'] });
    const model = gemini('gemini-2.5-pro', { apiKey: 'AIza-replay-test', httpOptions: { baseUrl: server.geminiBaseUrl } });
    const agent = new LlmAgent({ name: 'searcher', model, instruction: 'You are a helpful chatbot.', tools: [googleSearch] });
    const events = await run(agent, 'What is the weather in San Francisco today?', false);
    expect(events).toHaveLength(1);
    const recorded = (fixtureJson('gemini--google-search-grounding.json') as { candidates: Array<{ groundingMetadata: unknown }> })
      .candidates[0]!.groundingMetadata;
    expect(events[0]!.groundingMetadata).toEqual(recorded);
    expect(events[0]!.author).toBe('searcher');
    const body = server.requests[0]!.body as { tools: unknown[] };
    expect(body.tools).toEqual([{ googleSearch: {} }]);
    server.assertDone();
  });

  it('streamed: partial events carry no metadata, the final event carries all of it', async () => {
    server = await startReplayServer({ script: ['gemini--google-search-grounding-stream.sse'] });
    const model = gemini('gemini-2.5-pro', { apiKey: 'AIza-replay-test', httpOptions: { baseUrl: server.geminiBaseUrl } });
    const agent = new LlmAgent({ name: 'searcher', model, tools: [googleSearch] });
    const events = await run(agent, 'What is the weather in San Francisco today?', true);
    expect(events.filter((e) => e.partial)).toHaveLength(10);
    expect(events.filter((e) => e.partial).every((e) => e.groundingMetadata === undefined)).toBe(true);
    const final = events.at(-1)!;
    expect(final.partial).toBeUndefined();
    expect(Object.keys(final.groundingMetadata ?? {}).sort()).toEqual(['groundingChunks', 'groundingSupports', 'searchEntryPoint', 'webSearchQueries']);
    server.assertDone();
  });

  it('code execution: the parts reach the event; nothing runs locally', async () => {
    server = await startReplayServer({ script: ['gemini--code-execution.json'] });
    const model = gemini('gemini-2.5-pro', { apiKey: 'AIza-replay-test', httpOptions: { baseUrl: server.geminiBaseUrl } });
    const agent = new LlmAgent({ name: 'calc', model, tools: [codeExecution] });
    const events = await run(agent, 'What day is today in Utrecht?', false);
    expect(events).toHaveLength(1);
    expect(events[0]!.content!.parts!.map((p) => Object.keys(p)[0])).toEqual(['executableCode', 'codeExecutionResult', 'text']);
    expect((server.requests[0]!.body as { tools: unknown[] }).tools).toEqual([{ codeExecution: {} }]);
    server.assertDone();
  });
});

describe('a native tool on a model that is not Gemini', () => {
  it('bad input: the step fails with an error event naming the tool and the remedy; the model is never called', async () => {
    const calls: LlmRequest[] = [];
    const notGemini: Model = {
      model: 'gpt-4o',
      async *generateContent(request: LlmRequest): AsyncGenerator<LlmResponse> {
        calls.push(request);
        yield { content: { role: 'model', parts: [{ text: 'should not happen' }] } };
      },
    };
    const agent = new LlmAgent({ name: 'assistant', model: notGemini, tools: [googleSearch] });
    const events = await run(agent, 'news?', false);
    expect(calls).toEqual([]);
    expect(events).toHaveLength(1);
    expect(events[0]!.errorMessage).toBe(
      'Tool "google_search" is a Gemini-native tool and cannot run on model "gpt-4o": only Gemini models take it. Run it in an agent on a Gemini model and give that agent to this one as an agent-tool, or remove it from this agent.',
    );
    expect(events[0]!.errorCode).toBeDefined();
  });
});
