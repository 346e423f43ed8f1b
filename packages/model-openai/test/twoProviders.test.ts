import { InMemoryRunner, LlmAgent, SequentialAgent, createUserContent, stringifyContent, type Event, type RunnableTool } from '@adkit/flow';
import { startReplayServer } from '@adkit/replay-server';
import { expect, it } from 'vitest';
// @adkit/model-gemini is not a devDependency of this package (adding one changes the lockfile), so
// the test takes it from its sources in the workspace.
import { gemini } from '@adkit/model-gemini';
import { openai } from '../src/index.js';

function lookupTool(name: string, description: string, field: string, answers: Record<string, string>): RunnableTool {
  return {
    name,
    description,
    declaration: () => ({
      name,
      description,
      parametersJsonSchema: { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] },
    }),
    run: async (_ctx, args) => ({ result: answers[String(args[field])] ?? 'unknown' }),
  };
}

it('one app, two providers: a SequentialAgent runs a Gemini agent, then an OpenAI agent that sees its output', async () => {
  const server = await startReplayServer({
    script: [
      'gemini--function-call-stream.1.sse',
      'gemini--function-call-stream.2.sse',
      'gemini--function-call-stream.3.sse',
      'openai-chat--tool-call-stream.2.sse',
    ],
  });
  try {
    const researcher = new LlmAgent({
      name: 'researcher',
      model: gemini('gemini-2.0-flash', { apiKey: 'AIza-replay-test', httpOptions: { baseUrl: server.geminiBaseUrl } }),
      instruction: 'You are a helpful chatbot.',
      tools: [
        lookupTool('get_capital', 'Get the capital of a country.', 'country', { France: 'Paris' }),
        lookupTool('get_temperature', 'Get the temperature in a city.', 'city', { Paris: '30°C' }),
      ],
    });
    const writer = new LlmAgent({
      name: 'writer',
      model: openai('gpt-4o-mini', { apiKey: 'sk-replay-test', baseURL: server.openaiBaseURL }),
      instruction: 'Rewrite the answer in one sentence.',
    });
    const pipeline = new SequentialAgent({ name: 'pipeline', subAgents: [researcher, writer] });
    const runner = new InMemoryRunner({ agent: pipeline, appName: 'two-providers', autoCreateSession: true });

    const events: Event[] = [];
    for await (const event of runner.runAsync({
      userId: 'u1',
      sessionId: 's1',
      newMessage: createUserContent('What is the temperature of the capital of France?'),
      runConfig: { streamingMode: 'sse' },
    }))
      events.push(event);

    const complete = events.filter((e) => !e.partial);
    expect(complete.map((e) => `${e.author}: ${stringifyContent(e)}`)).toEqual([
      'researcher: [call get_capital({"country":"France"})]',
      'researcher: [response get_capital: {"result":"Paris"}]',
      'researcher: [call get_temperature({"city":"Paris"})]',
      'researcher: [response get_temperature: {"result":"30°C"}]',
      'researcher: The temperature in Paris is 30°C.\n',
      'writer: The capital of the UK is London.',
    ]);
    expect(complete.every((e) => !e.errorCode)).toBe(true);

    // Gemini got the tool results back in its own turns (ids cleared, FL-7).
    const geminiTurn3 = server.requests[2]!.body as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> };
    expect(geminiTurn3.contents.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
    expect(geminiTurn3.contents[2]!.parts).toEqual([{ functionResponse: { name: 'get_capital', response: { result: 'Paris' } } }]);

    // OpenAI got the researcher's turn, from the same session, as context in a user message.
    const openaiRequest = server.requests[3]!;
    expect(openaiRequest.path).toBe('/v1/chat/completions');
    const messages = (openaiRequest.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    expect(messages[0]!.role).toBe('system');
    expect(messages[0]!.content).toContain('Rewrite the answer in one sentence.');
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'What is the temperature of the capital of France?' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'For context:' },
          { type: 'text', text: '[researcher] called tool `get_capital` with parameters: {"country":"France"}' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'For context:' },
          { type: 'text', text: '[researcher] `get_capital` tool returned result: {"result":"Paris"}' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'For context:' },
          { type: 'text', text: '[researcher] called tool `get_temperature` with parameters: {"city":"Paris"}' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'For context:' },
          { type: 'text', text: '[researcher] `get_temperature` tool returned result: {"result":"30°C"}' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'For context:' },
          { type: 'text', text: '[researcher] said: The temperature in Paris is 30°C.\n' },
        ],
      },
    ]);

    const session = await runner.sessionService.getSession({ appName: 'two-providers', userId: 'u1', sessionId: 's1' });
    expect(new Set(session!.events.map((e) => e.author))).toEqual(new Set(['user', 'researcher', 'writer']));
    server.assertDone();
  } finally {
    await server.close();
  }
});
