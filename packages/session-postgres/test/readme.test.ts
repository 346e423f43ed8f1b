// The README's example is examples/postgres-sessions/src/sessionConflict.ts, verbatim, and prints what its
// `// …` comments say, against a database of its own on the test server. (The example's own test
// pins the same output.)
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, it, onTestFinished } from 'vitest';
import { codeBlocks, expectReadmeExample, runExample } from '@adkit/test-support';
import { PG_URL, testPool } from './support/pgTest.js';

const readme = new URL('../README.md', import.meta.url);
const example = new URL('../../../examples/postgres-sessions/src/sessionConflict.ts', import.meta.url);

it('shows examples/postgres-sessions/src/sessionConflict.ts verbatim', () => {
  expectReadmeExample(readme, example);
});

it.skipIf(!PG_URL)('the example prints what its comments say', async () => {
  const [code] = codeBlocks(readFileSync(readme, 'utf8'), 'ts');
  const said = [...code!.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((match) => match[1]);
  expect(said).toHaveLength(2);

  const database = `readme_${randomBytes(6).toString('hex')}`;
  await testPool().query(`CREATE DATABASE ${database}`);
  onTestFinished(async () => {
    await testPool().query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });
  const url = new URL(PG_URL!);
  url.pathname = `/${database}`;
  expect((await runExample(example, { env: { DATABASE_URL: url.href } })).stdout).toEqual(said);
});
