// The example runs as `node dist/main.js` would, offline, and prints the run's span tree: one
// invoke_agent span whose children are the two model calls and the two parallel tool calls
// (FL-9), each tool span carrying its own call id.
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

it('FL-9: prints invoke_agent > chat, execute_tool ×2 (one per call id), chat', async () => {
  const { stdout, stderr, exitCode } = await runExample(new URL('../src/main.ts', import.meta.url));
  expect(stdout).toEqual([
    'invoke_agent weather_agent (5 tokens out): completed',
    '  chat gpt-4.1-mini: completed',
    '  execute_tool get_weather call_paris: completed',
    '  execute_tool get_weather call_tokyo: completed',
    '  chat gpt-4.1-mini (5 tokens out): completed',
  ]);
  expect({ stderr, exitCode }).toEqual({ stderr: [], exitCode: 0 });
});
