// The README's example is examples/skills/src/main.ts, verbatim, and the listing it shows is the
// one the example prints last. (The example's own test pins its whole output.)
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { codeBlocks, expectReadmeExample, runExample } from '@adkit/test-support';

const readme = new URL('../README.md', import.meta.url);
const example = new URL('../../../examples/skills/src/main.ts', import.meta.url);

it('shows examples/skills/src/main.ts verbatim, and the listing it prints (SK-11)', { timeout: 20_000 }, async () => {
  expectReadmeExample(readme, example);
  const [shown] = codeBlocks(readFileSync(readme, 'utf8'), 'text');
  const { stdout } = await runExample(example);
  expect(`${stdout.at(-1)}\n`).toBe(shown);
});

it('documents every skillToolset and fileSystemSource option', () => {
  const text = readFileSync(readme, 'utf8');
  for (const option of ['source', 'name', 'systemInstruction', 'additionalTools', 'enforceAllowedTools', 'maxResourceBytes'])
    expect(text).toContain(`| \`${option}\` |`);
  for (const option of ['strict', 'depth', 'resourceFolders', 'logger', 'maxSkillMdBytes']) expect(text).toContain(`| \`${option}\` |`);
});
