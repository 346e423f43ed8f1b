// The example runs as `node dist/main.js` would, with the real @google/genai SDK pointed at the
// replay server (GOOGLE_GEMINI_BASE_URL), which replays a recorded grounded stream. Bad input
// tried: a missing API key (the SDK never gets a request), a stream cut before its finish reason.
import { readFileSync } from 'node:fs';
import { startReplayServer, truncatedFixture } from '@adkit/replay-server';
import { runExample } from '@adkit/test-support';
import { expect, it, onTestFinished } from 'vitest';

const main = new URL('../src/main.ts', import.meta.url);
// What `npm run example -- gemini-search --offline` replays (#31): the recording this test replays.
const offlineScript = JSON.parse(readFileSync(new URL('../replay.json', import.meta.url), 'utf8')) as string[];

const FIXTURE = 'gemini--google-search-grounding-stream.sse';

async function replay(step: Parameters<typeof startReplayServer>[0]) {
  const server = await startReplayServer(step);
  onTestFinished(() => server.close());
  return { server, env: { GEMINI_API_KEY: 'AIza-replay-test', GOOGLE_API_KEY: undefined, GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl } };
}

it('BT-10: streams the grounded answer, then prints its search queries and sources', async () => {
  const { server, env } = await replay({ script: offlineScript });
  expect(await runExample(main, { env })).toEqual({
    stdout: [
      '10 chunks, then: ### Weather in San Francisco is Mild and Partly Cloudy Today',
      'searched for: weather in San Francisco today',
      'source: Weather information for San Francisco, CA, US',
      'source: timeanddate.com',
      'source: weather.gov',
      'source: wunderground.com',
      'source: accuweather.com',
    ],
    stderr: [],
    exitCode: 0,
  });
  expect(server.requests.map((request) => request.path)).toEqual(['/v1beta/models/gemini-2.5-pro:streamGenerateContent']);
  expect(server.requests[0]!.body).toMatchObject({ tools: [{ googleSearch: {} }] });
  server.assertDone();
});

it('issue 9: a stream cut before its finish reason is reported, and no answer or source is made up', async () => {
  const { env } = await replay({ script: [truncatedFixture(FIXTURE, 4)] });
  const run = await runExample(main, { env });
  expect(run).toEqual({ stdout: [], stderr: [expect.stringMatching(/^INCOMPLETE_STREAM: /)], exitCode: 1 });
});

it('without an API key: one line naming the variable and the offline command, exit code 1, no request', async () => {
  const run = await runExample(main, { env: { GEMINI_API_KEY: undefined, GOOGLE_API_KEY: undefined } });
  expect(run).toEqual({ stdout: [], stderr: [expect.stringMatching(/set GEMINI_API_KEY or GOOGLE_API_KEY.* Or run it offline: npm run example -- gemini-search --offline$/)], exitCode: 1 });
});
