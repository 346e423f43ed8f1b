// The example runs as `node dist/main.js` would, offline: Monday's session is remembered, and on
// Tuesday the model gets it from preload_memory (printed) and from load_memory (its answer).
// (@adkit/memory-tools' README test checks that its README shows src/main.ts and this output.)
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

it('BT-3, BT-4, BT-5: what Ada said on Monday reaches the model on Tuesday', async () => {
  const { stdout, stderr, exitCode } = await runExample(new URL('../src/main.ts', import.meta.url));
  expect(stdout.slice(0, 3)).toEqual(['monday: Noted: Rex.', 'tuesday: [call load_memory({"query":"dog"})]', 'tuesday: Your dog is called Rex.']);
  expect(stdout[3]).toMatch(/^<PAST_CONVERSATIONS>\nTime: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\nuser: My dog is called Rex\.\n<\/PAST_CONVERSATIONS>$/);
  expect(stdout).toHaveLength(4);
  expect({ stderr, exitCode }).toEqual({ stderr: [], exitCode: 0 });
});
