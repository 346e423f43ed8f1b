// The README's example is examples/confirmation/src/main.ts, verbatim, and prints what the README
// shows, where "…" stands for the call id and digest that change every run. (The example's own
// test pins the same output, with the id's and the digest's formats.)
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { codeBlocks, expectReadmeExample, runExample } from '@adkit/test-support';

const readme = new URL('../README.md', import.meta.url);
const example = new URL('../../../examples/confirmation/src/main.ts', import.meta.url);

it('shows examples/confirmation/src/main.ts verbatim, and the output it prints', async () => {
  expectReadmeExample(readme, example);
  const [shown] = codeBlocks(readFileSync(readme, 'utf8'), 'text');
  const pattern = shown!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('…', '[^"]+');
  const { stdout } = await runExample(example);
  expect(`${stdout.join('\n')}\n`).toMatch(new RegExp(`^${pattern}$`));
});
