// The README's example is examples/openapi/src/main.ts, verbatim, and prints what the README
// shows. (The example's own test pins the same output.)
import { readFileSync } from 'node:fs';
import { codeBlocks, expectReadmeExample, runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

const readme = new URL('../README.md', import.meta.url);
const example = new URL('../../../examples/openapi/src/main.ts', import.meta.url);

it('shows examples/openapi/src/main.ts verbatim, and the output it prints', async () => {
  expectReadmeExample(readme, example);
  const [shown] = codeBlocks(readFileSync(readme, 'utf8'), 'text');
  const { stdout } = await runExample(example);
  expect(`${stdout.join('\n')}\n`).toBe(shown);
});
