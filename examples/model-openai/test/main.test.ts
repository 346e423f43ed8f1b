// The example runs as `node dist/main.js` would, with the real openai SDK pointed at the replay
// server through OPENAI_BASE_URL, as a user points it at another server. (@adkit/model-openai's
// README test checks that its README shows src/streamToolCall.ts verbatim.)
import { readFileSync } from 'node:fs';
import { startReplayServer, truncatedFixture } from '@adkit/replay-server';
import { runExample } from '@adkit/test-support';
import { expect, it, onTestFinished } from 'vitest';

const main = new URL('../src/main.ts', import.meta.url);
// What `npm run example -- model-openai --offline` replays (#31): the recording this test replays.
const offlineScript = JSON.parse(readFileSync(new URL('../replay.json', import.meta.url), 'utf8')) as string[];


it('sends the strict tool schema, then prints the streamed tool call, assembled', async () => {
  const server = await startReplayServer({ script: offlineScript });
  onTestFinished(() => server.close());
  const env = { OPENAI_API_KEY: 'sk-replay-test', OPENAI_BASE_URL: server.openaiBaseURL };
  expect(await runExample(main, { env })).toEqual({
    stdout: ['[{"functionCall":{"id":"call_ZR5UUuTt3pf61kjwAJIYdVMj","name":"get_capital","args":{"country":"UK"}}}]'],
    stderr: [],
    exitCode: 0,
  });
  expect(server.requests.map((request) => request.path)).toEqual(['/v1/chat/completions']);
  expect(server.requests[0]!.body).toMatchObject({
    model: 'gpt-4o-mini',
    stream: true,
    messages: [{ role: 'user', content: 'What is the capital of the UK? Use the tool, then answer.' }],
    tools: [
      {
        type: 'function',
        function: {
          name: 'get_capital',
          strict: true,
          parameters: { type: 'object', properties: { country: { type: 'string' } }, required: ['country'], additionalProperties: false },
        },
      },
    ],
  });
  server.assertDone();
});

it('issue 9: a stream cut before its finish reason prints INCOMPLETE_STREAM, never the half-received call', async () => {
  // A copy of the recorded stream without its last three events (finish reason, usage, [DONE]).
  const server = await startReplayServer({ script: [truncatedFixture('openai-chat--tool-call-stream.1.sse', 6)] });
  onTestFinished(() => server.close());
  const env = { OPENAI_API_KEY: 'sk-replay-test', OPENAI_BASE_URL: server.openaiBaseURL };
  expect(await runExample(main, { env })).toEqual({
    stdout: [],
    stderr: [
      'INCOMPLETE_STREAM: The OpenAI stream for model "gpt-4o-mini" ended after 6 events without a finish reason; the answer is incomplete, so it was dropped.',
    ],
    exitCode: 0,
  });
  server.assertDone();
});

it('without OPENAI_API_KEY, says what to set and exits 1', async () => {
  expect(await runExample(main, { env: { OPENAI_API_KEY: undefined } })).toEqual({
    stdout: [],
    stderr: [
      'openai("gpt-4o-mini"): no API key. Pass {apiKey} or set OPENAI_API_KEY (for a local OpenAI-compatible server such as Ollama, any non-empty string works). Or run it offline: npm run example -- model-openai --offline',
    ],
    exitCode: 1,
  });
});
