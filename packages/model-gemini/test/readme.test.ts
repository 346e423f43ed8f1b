import { readFileSync } from 'node:fs';
import { startReplayServer } from '@adkit/replay-server';
import { afterEach, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

it('the README example is test/readme/example.ts, and it runs against the replay server', async () => {
  const example = readFileSync(new URL('./readme/example.ts', import.meta.url), 'utf8');
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  expect(readme).toContain('```ts\n' + example + '```');

  const server = await startReplayServer({ script: ['gemini--function-call-stream.1.sse'] });
  vi.stubEnv('GEMINI_API_KEY', 'AIza-replay-test');
  vi.stubEnv('GOOGLE_API_KEY', '');
  vi.stubEnv('GOOGLE_GEMINI_BASE_URL', server.geminiBaseUrl);
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await import('./readme/example.js');
  } finally {
    await server.close();
  }
  expect(log.mock.calls).toEqual([['[{"functionCall":{"name":"get_capital","args":{"country":"France"}}}]']]);
  expect(server.requests[0]!.path).toBe('/v1beta/models/gemini-2.0-flash:streamGenerateContent');
  server.assertDone();
});
