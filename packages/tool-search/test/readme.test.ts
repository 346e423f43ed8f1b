// The README's example is test/readmeExample.ts, verbatim, and does what the README says.
import { expect, it } from 'vitest';
import { expectReadmeExample } from '@adkit/test-support';
import { toolSearchExample } from './readmeExample.js';

it('shows test/readmeExample.ts verbatim; of 300 tools, the steps declare 1, then 4, then 4', async () => {
  expectReadmeExample(new URL('../README.md', import.meta.url), new URL('./readmeExample.ts', import.meta.url));
  expect(await toolSearchExample()).toEqual([1, 4, 4]);
});
