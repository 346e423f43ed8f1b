// The example runs as `node dist/main.js` would, offline: the scripted model calls the real
// server-everything over stdio and sees its answer; runner.close() leaves no server process.
// (@adkit/mcp-toolset's README test checks that its README shows src/main.ts and this output.)
import { readdirSync, readFileSync } from 'node:fs';
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

/** Children of this process whose command line mentions server-everything. */
function everythingChildren(): string[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(parent) === process.pid && state !== 'Z' && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('server-everything');
      } catch {
        return false;
      }
    });
}

it('MCP-6, MCP-7: the model calls get-sum on the real server over stdio and sees its answer', { timeout: 20_000 }, async () => {
  const { stdout, stderr, exitCode } = await runExample(new URL('../src/main.ts', import.meta.url));
  expect(stdout).toEqual([
    '[call get-sum({"a":2,"b":3})]',
    '[response get-sum: {"output":"The sum of 2 and 3 is 5."}]',
    '2 + 3 = 5.',
    'the model saw: echo, get-sum',
  ]);
  expect({ stderr, exitCode }).toEqual({ stderr: [], exitCode: 0 });
  expect(everythingChildren()).toEqual([]);
});
