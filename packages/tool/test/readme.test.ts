// The README's example is examples/toolsets/src/dictionary.ts, verbatim; the example's own test
// runs it and pins what it prints.
import { it } from 'vitest';
import { expectReadmeExample } from '@adkit/test-support';

it('shows examples/toolsets/src/dictionary.ts verbatim', () => {
  expectReadmeExample(new URL('../README.md', import.meta.url), new URL('../../../examples/toolsets/src/dictionary.ts', import.meta.url));
});
