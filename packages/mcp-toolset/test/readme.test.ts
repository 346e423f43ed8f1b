// The README's example is examples/mcp-stdio/src/main.ts, verbatim, and prints what the README
// shows. (The example's own test pins the same output and checks no server process is left.)
import { readFileSync } from 'node:fs';
import { codeBlocks, expectReadmeExample, runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

const readme = new URL('../README.md', import.meta.url);
const example = new URL('../../../examples/mcp-stdio/src/main.ts', import.meta.url);

it('shows examples/mcp-stdio/src/main.ts verbatim, and the output it prints', { timeout: 20_000 }, async () => {
  expectReadmeExample(readme, example);
  const [shown] = codeBlocks(readFileSync(readme, 'utf8'), 'text');
  const { stdout } = await runExample(example);
  expect(`${stdout.join('\n')}\n`).toBe(shown);
});

it('its durable-pause example is, verbatim, the code test/elicitationPause.test.ts runs', () => {
  const [, pause] = codeBlocks(readFileSync(readme, 'utf8'), 'ts');
  expect(pause).toBeDefined();
  const test = readFileSync(new URL('./elicitationPause.test.ts', import.meta.url), 'utf8');
  const indented = pause!
    .split('\n')
    .map((line) => (line ? `    ${line}` : line))
    .join('\n');
  expect(test).toContain(indented);
});
