// The README's example is test/readmeExample.ts, verbatim, and it runs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readmeExample } from './readmeExample.js';

describe('README', () => {
  it('shows test/readmeExample.ts verbatim, and it runs', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const source = readFileSync(new URL('./readmeExample.ts', import.meta.url), 'utf8');
    expect(/```ts\n([\s\S]*?)```/.exec(readme)![1]).toBe(source);
    expect(await readmeExample()).toEqual([
      'tutor: [call dict_define({"word":"tool"})]',
      'tutor: [response dict_define: {"word":"tool","definition":"a thing that helps do a job"}]',
      'tutor: A tool is a thing that helps do a job.',
    ]);
  });
});
