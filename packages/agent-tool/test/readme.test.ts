// The README's example is examples/agent-as-tool/src/main.ts, verbatim, and prints what it shows.
import { readFileSync } from 'node:fs';
import { codeBlocks, expectReadmeExample, runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

const readme = new URL('../README.md', import.meta.url);
const example = new URL('../../../examples/agent-as-tool/src/main.ts', import.meta.url);

it('shows examples/agent-as-tool/src/main.ts verbatim, and the output it prints', async () => {
  expectReadmeExample(readme, example);
  const [shown] = codeBlocks(readFileSync(readme, 'utf8'), 'text');
  const { stdout } = await runExample(example);
  expect(`${stdout.join('\n')}\n`).toBe(shown);
});
