// The README's example is examples/dev-ui/src/main.ts, verbatim, and prints what the README shows
// (with the port the test gets instead of 8000); Ctrl+C (its SIGINT listener) closes the server.
import { readFileSync } from 'node:fs';
import { codeBlocks, expectReadmeExample, runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

const readme = new URL('../README.md', import.meta.url);
const example = new URL('../../../examples/dev-ui/src/main.ts', import.meta.url);

it('shows examples/dev-ui/src/main.ts verbatim, and the line it prints', async () => {
  expectReadmeExample(readme, example);
  const [shown] = codeBlocks(readFileSync(readme, 'utf8'), 'text');
  const before = new Set(process.listeners('SIGINT'));
  const { stdout } = await runExample(example, { env: { PORT: '0' } });
  const [stop] = process.listeners('SIGINT').filter((listener) => !before.has(listener));
  process.removeListener('SIGINT', stop!);
  const port = /:(\d+)\/$/.exec(stdout[0] ?? '')?.[1];
  expect(`${stdout.join('\n')}\n`).toBe(shown!.replace(':8000/', `:${port}/`));
  stop!('SIGINT');
  await expect.poll(() => fetch(`http://127.0.0.1:${port}/`).then(() => 'open', () => 'closed')).toBe('closed');
});
