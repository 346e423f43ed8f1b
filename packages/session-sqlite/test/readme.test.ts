// The README's example is examples/durable-sessions/src/main.ts, verbatim, and prints what its
// `// …` comments say. It writes sessions.db in the working directory: here, a temporary one.
// (The example's own test pins the same output and reads the file back.)
import { readFileSync } from 'node:fs';
import { expect, it, onTestFinished } from 'vitest';
import { codeBlocks, expectReadmeExample, runExample } from '@adkit/test-support';
import { tempDir } from './support/tempDir.js';

const readme = new URL('../README.md', import.meta.url);
const example = new URL('../../../examples/durable-sessions/src/main.ts', import.meta.url);

it('shows examples/durable-sessions/src/main.ts verbatim, and it prints what its comments say', async () => {
  expectReadmeExample(readme, example);
  const [code] = codeBlocks(readFileSync(readme, 'utf8'), 'ts');
  const said = [...code!.matchAll(/^console\.log\(.*\); \/\/ (.*)$/gm)].map((match) => match[1]);
  expect(said).toHaveLength(2);

  const temp = tempDir();
  onTestFinished(() => temp.remove());
  expect((await runExample(example, { cwd: temp.dir })).stdout).toEqual(said);
});
