// The example runs as `node dist/main.js` would, with the real @google/genai SDK pointed at the
// replay server through GOOGLE_GEMINI_BASE_URL. (@adkit/gemini-tools' README test checks that its
// README shows src/googleSearch.ts verbatim.)
import { readFileSync } from 'node:fs';
import { startReplayServer } from '@adkit/replay-server';
import { runExample } from '@adkit/test-support';
import { expect, it, onTestFinished } from 'vitest';

const main = new URL('../src/main.ts', import.meta.url);
// What `npm run example -- gemini-tools --offline` replays (#31): the recording this test replays.
const offlineScript = JSON.parse(readFileSync(new URL('../replay.json', import.meta.url), 'utf8')) as string[];


it('BT-10, BT-11: sends {googleSearch: {}} and prints the queries Gemini searched for', async () => {
  const server = await startReplayServer({ script: offlineScript });
  onTestFinished(() => server.close());
  const env = { GEMINI_API_KEY: 'AIza-replay-test', GOOGLE_API_KEY: undefined, GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl };
  expect(await runExample(main, { env })).toEqual({
    stdout: ["searched for: [ 'weather in San Francisco today' ]"],
    stderr: [],
    exitCode: 0,
  });
  expect(server.requests.map((request) => request.path)).toEqual(['/v1beta/models/gemini-2.5-pro:generateContent']);
  expect(server.requests[0]!.body).toMatchObject({
    contents: [{ role: 'user', parts: [{ text: 'What is the weather in San Francisco today?' }] }],
    systemInstruction: { parts: [{ text: expect.stringMatching(/^You are a helpful chatbot\./) }] },
    tools: [{ googleSearch: {} }],
  });
  server.assertDone();
});

it('without GEMINI_API_KEY or GOOGLE_API_KEY, says what to set and exits 1', async () => {
  expect(await runExample(main, { env: { GEMINI_API_KEY: undefined, GOOGLE_API_KEY: undefined } })).toEqual({
    stdout: [],
    stderr: [
      'gemini("gemini-2.5-pro"): no API key. Pass {apiKey}, set GEMINI_API_KEY or GOOGLE_API_KEY, or use Vertex AI with {vertexai: true, project, location}. Or run it offline: npm run example -- gemini-tools --offline',
    ],
    exitCode: 1,
  });
});
