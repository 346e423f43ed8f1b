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

  const server = await startReplayServer({ script: ['openai-chat--tool-call-stream.1.sse'] });
  vi.stubEnv('OPENAI_API_KEY', 'sk-replay-test');
  vi.stubEnv('OPENAI_BASE_URL', server.openaiBaseURL);
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await import('./readme/example.js');
  } finally {
    await server.close();
  }
  expect(log.mock.calls).toEqual([
    ['[{"functionCall":{"id":"call_ZR5UUuTt3pf61kjwAJIYdVMj","name":"get_capital","args":{"country":"UK"}}}]'],
  ]);
  expect(server.requests[0]!.path).toBe('/v1/chat/completions');
  server.assertDone();
});
