// The README's example is examples/oauth/src/main.ts, verbatim, and prints what the README shows,
// where "…" stands for what changes every run (ids, ports, the state, the digest).
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { codeBlocks, expectReadmeExample, runExample } from '@adkit/test-support';

const readme = new URL('../README.md', import.meta.url);
const example = new URL('../../../examples/oauth/src/main.ts', import.meta.url);

it('shows examples/oauth/src/main.ts verbatim, and the output it prints', async () => {
  expectReadmeExample(readme, example);
  const [shown] = codeBlocks(readFileSync(readme, 'utf8'), 'text');
  const pattern = shown!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('…', '[^"\\n]+');
  const { stdout } = await runExample(example);
  expect(`${stdout.join('\n')}\n`).toMatch(new RegExp(`^${pattern}$`));
});
