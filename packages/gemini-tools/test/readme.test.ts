// The README's example is examples/gemini-tools/src/googleSearch.ts, verbatim; the example's own test runs it
// with the real SDK against the replay server and pins what it prints.
import { it } from 'vitest';
import { expectReadmeExample } from '@adkit/test-support';

it('shows examples/gemini-tools/src/googleSearch.ts verbatim', () => {
  expectReadmeExample(new URL('../README.md', import.meta.url), new URL('../../../examples/gemini-tools/src/googleSearch.ts', import.meta.url));
});
