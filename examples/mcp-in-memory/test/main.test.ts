// The example runs as `node dist/main.js` would, offline: an SDK-built MCP server over the SDK's
// in-memory transport; its progress notifications reach the client as partial progress events of
// the call, with a fraction, before the saved response (MCP-7, MCP-8). Bad input tried: none from
// outside; the example pins what an agent run shows.
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

it('MCP-7, MCP-8: the server tool runs, its progress shows as fractions, its text is the output', async () => {
  const { stdout, stderr, exitCode } = await runExample(new URL('../src/main.ts', import.meta.url));
  expect(stdout).toEqual([
    '[call get_forecast({"city":"Oslo","days":3})]',
    '  … get_forecast 33%: day 1',
    '  … get_forecast 67%: day 2',
    '  … get_forecast 100%: day 3',
    '[response get_forecast: {"output":"Oslo: sunny, then cloudy, then rain."}]',
    'Oslo: sunny first, rain by Wednesday.',
  ]);
  expect({ stderr, exitCode }).toEqual({ stderr: [], exitCode: 0 });
});
