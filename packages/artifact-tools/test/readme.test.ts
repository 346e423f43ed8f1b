// The README's example is examples/artifacts/src/main.ts, verbatim, and prints what the README
// shows. It keeps artifacts in ./artifacts: here, in a temporary working directory. (The example's
// own test pins the same output and runs it twice to show the versions on disk.)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { codeBlocks, expectReadmeExample, runExample } from '@adkit/test-support';

const readme = new URL('../README.md', import.meta.url);
const example = new URL('../../../examples/artifacts/src/main.ts', import.meta.url);

it('shows examples/artifacts/src/main.ts verbatim, and the output it prints', async () => {
  expectReadmeExample(readme, example);
  const [shown] = codeBlocks(readFileSync(readme, 'utf8'), 'text');
  const dir = mkdtempSync(join(tmpdir(), 'adkit-artifacts-readme-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const { stdout } = await runExample(example, { cwd: dir });
  expect(`${stdout.join('\n')}\n`).toBe(shown);
});
