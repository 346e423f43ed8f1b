import { readFileSync } from 'node:fs';
import { fixtureJson, startReplayServer } from '@adkit/replay-server';
import { afterEach, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

it('the README example is test/readme/example.ts, and it runs against the replay server', async () => {
  const example = readFileSync(new URL('./readme/example.ts', import.meta.url), 'utf8');
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  expect(readme).toContain('```ts\n' + example + '```');

  const server = await startReplayServer({ script: ['gemini--google-search-grounding.json'] });
  vi.stubEnv('GEMINI_API_KEY', 'AIza-replay-test');
  vi.stubEnv('GOOGLE_API_KEY', '');
  vi.stubEnv('GOOGLE_GEMINI_BASE_URL', server.geminiBaseUrl);
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await import('./readme/example.js');
  } finally {
    await server.close();
  }
  const recorded = fixtureJson('gemini--google-search-grounding.json') as {
    candidates: Array<{ groundingMetadata: { webSearchQueries: string[] } }>;
  };
  expect(log.mock.calls).toEqual([['searched for:', recorded.candidates[0]!.groundingMetadata.webSearchQueries]]);
  expect((server.requests[0]!.body as { tools: unknown }).tools).toEqual([{ googleSearch: {} }]);
  server.assertDone();
});
