// The example runs as `node dist/main.js` would, offline, and prints the whole turn.
// (@adkit/flow's README test checks that its README shows src/main.ts and this output verbatim.)
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

it('prints the model call, the tool response and the answer', async () => {
  expect(await runExample(new URL('../src/main.ts', import.meta.url))).toEqual({
    stdout: [
      'clock: [call get_time({"city":"Oslo"})]',
      'clock: [response get_time: {"city":"Oslo","time":"10:30"}]',
      'clock: It is 10:30 in Oslo.',
    ],
    stderr: [],
    exitCode: 0,
  });
});
