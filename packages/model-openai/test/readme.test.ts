// The README's example is examples/model-openai/src/streamToolCall.ts, verbatim; the example's own test runs it
// with the real SDK against the replay server and pins what it prints.
import { it } from 'vitest';
import { expectReadmeExample } from '@adkit/test-support';

it('shows examples/model-openai/src/streamToolCall.ts verbatim', () => {
  expectReadmeExample(new URL('../README.md', import.meta.url), new URL('../../../examples/model-openai/src/streamToolCall.ts', import.meta.url));
});
