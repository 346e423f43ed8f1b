// The example runs as `node dist/main.js` would, with the real openai and @google/genai SDKs both
// pointed at one replay server: the OpenAI side answers with written Chat Completions responses,
// the Gemini side with a recorded grounded answer. Bad input tried: the Gemini side failing with a
// recorded 400 (the OpenAI agent gets the error as the tool's answer and carries on), no keys.
import { readFileSync } from 'node:fs';
import { startReplayServer, type ReplayStep } from '@adkit/replay-server';
import { runExample } from '@adkit/test-support';
import { expect, it, onTestFinished } from 'vitest';

const main = new URL('../src/main.ts', import.meta.url);

/** A Chat Completions answer as the API writes it: one tool call, or text. */
function chat(message: { content?: string; call?: { name: string; args: Record<string, unknown> } }): ReplayStep {
  const { content, call } = message;
  return {
    endpoint: '/chat/completions',
    json: {
      id: 'chatcmpl-written',
      object: 'chat.completion',
      created: 1764460800,
      model: 'gpt-4.1-mini-2025-04-14',
      choices: [
        {
          index: 0,
          finish_reason: call ? 'tool_calls' : 'stop',
          message: {
            role: 'assistant',
            content: content ?? null,
            refusal: null,
            ...(call ? { tool_calls: [{ id: 'call_search_1', type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }] } : {}),
          },
        },
      ],
      usage: { prompt_tokens: 80, completion_tokens: 20, total_tokens: 100 },
    },
  };
}

async function replay(script: ReplayStep[]) {
  const server = await startReplayServer({ script });
  onTestFinished(() => server.close());
  const env = {
    OPENAI_API_KEY: 'sk-replay-test',
    OPENAI_BASE_URL: server.openaiBaseURL,
    GEMINI_API_KEY: 'AIza-replay-test',
    GOOGLE_API_KEY: undefined,
    GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl,
  };
  return { server, env };
}

it('AT-1, AT-6, BT-10: the OpenAI agent calls the Gemini searcher, which searches; the answer crosses providers', async () => {
  const script = [
    chat({ call: { name: 'searcher', args: { request: 'What is the weather in San Francisco today?' } } }),
    'gemini--google-search-grounding.json',
    chat({ content: 'Bring a light jacket: it is mild and partly cloudy, around 69°F, cooler tonight.' }),
  ];
  // `npm run example -- mixed-models --offline` replays exactly this (#31).
  expect(JSON.parse(readFileSync(new URL('../replay.json', import.meta.url), 'utf8'))).toEqual(script);
  const { server, env } = await replay(script);
  expect(await runExample(main, { env })).toEqual({
    stdout: [
      'assistant → searcher({"request":"What is the weather in San Francisco today?"})',
      '  (searcher on gemini-2.5-pro): ## Weather in San Francisco is Mild and Partly Cloudy',
      '  searcher ← ## Weather in San Francisco is Mild and Partly Cloudy',
      'assistant: Bring a light jacket: it is mild and partly cloudy, around 69°F, cooler tonight.',
    ],
    stderr: [],
    exitCode: 0,
  });
  expect(server.requests.map((request) => request.path)).toEqual([
    '/v1/chat/completions',
    '/v1beta/models/gemini-2.5-pro:generateContent',
    '/v1/chat/completions',
  ]);
  const [first, search, last] = server.requests.map((request) => request.body as Record<string, unknown>);
  expect(first).toMatchObject({ model: 'gpt-4.1-mini', tools: [{ type: 'function', function: { name: 'searcher' } }] });
  expect(search).toMatchObject({
    contents: [{ role: 'user', parts: [{ text: 'What is the weather in San Francisco today?' }] }],
    tools: [{ googleSearch: {} }],
  });
  // The searcher's answer goes back to OpenAI as the tool message of its call.
  expect(last).toMatchObject({
    messages: expect.arrayContaining([
      expect.objectContaining({ role: 'tool', tool_call_id: 'call_search_1', content: expect.stringMatching(/^## Weather in San Francisco/) }),
    ]),
  });
  server.assertDone();
});

it('a Gemini failure reaches the OpenAI agent as the tool error, and the run goes on', async () => {
  const { server, env } = await replay([
    chat({ call: { name: 'searcher', args: { request: 'weather in San Francisco' } } }),
    'gemini--error-400-api-key-invalid.json',
    chat({ content: 'The search failed, so I cannot say.' }),
  ]);
  const run = await runExample(main, { env });
  expect(run.stdout.at(-1)).toBe('assistant: The search failed, so I cannot say.');
  const toolMessage = (server.requests[2]!.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'tool');
  expect(toolMessage!.content).toMatch(/"error":".*API key not valid/);
  server.assertDone();
});

it('without keys: one line naming the variable and the offline command, exit code 1, no request', async () => {
  const run = await runExample(main, { env: { OPENAI_API_KEY: undefined, GEMINI_API_KEY: 'x', GOOGLE_API_KEY: undefined } });
  expect(run).toEqual({ stdout: [], stderr: [expect.stringMatching(/OPENAI_API_KEY.* Or run it offline: npm run example -- mixed-models --offline$/)], exitCode: 1 });
});
