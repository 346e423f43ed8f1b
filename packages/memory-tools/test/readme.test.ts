// The README's example is examples/memory/src/main.ts, verbatim, and prints what the README shows,
// where "…" stands for the time, which changes every run. (The example's own test pins the same
// output, with the time's format.)
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { codeBlocks, expectReadmeExample, runExample } from '@adkit/test-support';

const readme = new URL('../README.md', import.meta.url);
const example = new URL('../../../examples/memory/src/main.ts', import.meta.url);

it('shows examples/memory/src/main.ts verbatim, and the output it prints', async () => {
  expectReadmeExample(readme, example);
  const [shown] = codeBlocks(readFileSync(readme, 'utf8'), 'text');
  const pattern = shown!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('…', '\\S+');
  const { stdout } = await runExample(example);
  expect(`${stdout.join('\n')}\n`).toMatch(new RegExp(`^${pattern}$`));
});
