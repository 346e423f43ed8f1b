// The example runs as `node dist/main.js` would, with the real @google/genai SDK pointed at the
// replay server through GOOGLE_GEMINI_BASE_URL. (@adkit/model-gemini's README test checks that
// its README shows src/streamToolCall.ts verbatim.)
import { readFileSync } from 'node:fs';
import { startReplayServer, truncatedFixture } from '@adkit/replay-server';
import { runExample } from '@adkit/test-support';
import { expect, it, onTestFinished } from 'vitest';

const main = new URL('../src/main.ts', import.meta.url);
// What `npm run example -- model-gemini --offline` replays (#31): the recording this test replays.
const offlineScript = JSON.parse(readFileSync(new URL('../replay.json', import.meta.url), 'utf8')) as string[];


it('sends the declaration and system instruction, then prints the streamed function call', async () => {
  const server = await startReplayServer({ script: offlineScript });
  onTestFinished(() => server.close());
  const env = { GEMINI_API_KEY: 'AIza-replay-test', GOOGLE_API_KEY: undefined, GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl };
  expect(await runExample(main, { env })).toEqual({
    stdout: ['[{"functionCall":{"name":"get_capital","args":{"country":"France"}}}]'],
    stderr: [],
    exitCode: 0,
  });
  expect(server.requests.map((request) => request.path)).toEqual(['/v1beta/models/gemini-2.0-flash:streamGenerateContent']);
  expect(server.requests[0]!.body).toMatchObject({
    contents: [{ role: 'user', parts: [{ text: 'What is the temperature of the capital of France?' }] }],
    systemInstruction: { parts: [{ text: 'You are a helpful chatbot.' }] },
    tools: [{ functionDeclarations: [{ name: 'get_capital', parametersJsonSchema: { required: ['country'] } }] }],
  });
  server.assertDone();
});

it('issue 9: a stream cut before its finish reason prints INCOMPLETE_STREAM, never the call it held', async () => {
  // A copy of a recorded stream cut after its first chunk: a whole-looking call, no finish reason.
  const server = await startReplayServer({ script: [truncatedFixture('gemini--function-call-thought-signature-stream.1.sse', 1)] });
  onTestFinished(() => server.close());
  const env = { GEMINI_API_KEY: 'AIza-replay-test', GOOGLE_API_KEY: undefined, GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl };
  expect(await runExample(main, { env })).toEqual({
    stdout: [],
    stderr: [
      'INCOMPLETE_STREAM: The Gemini stream for model "gemini-2.0-flash" ended after 1 chunk without a finish reason; the answer is incomplete, so it was dropped.',
    ],
    exitCode: 0,
  });
  server.assertDone();
});

it('without GEMINI_API_KEY or GOOGLE_API_KEY, says what to set and exits 1', async () => {
  expect(await runExample(main, { env: { GEMINI_API_KEY: undefined, GOOGLE_API_KEY: undefined } })).toEqual({
    stdout: [],
    stderr: [
      'gemini("gemini-2.0-flash"): no API key. Pass {apiKey}, set GEMINI_API_KEY or GOOGLE_API_KEY, or use Vertex AI with {vertexai: true, project, location}. Or run it offline: npm run example -- model-gemini --offline',
    ],
    exitCode: 1,
  });
});
