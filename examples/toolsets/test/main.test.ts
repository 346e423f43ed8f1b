// The example runs as `node dist/main.js` would, offline: the model calls the prefixed tool by its
// new name and the call reaches the original. (@adkit/tool's README test checks that its README
// shows src/dictionary.ts verbatim.)
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

it('PK-5: the prefixed, filtered tool answers under its new name, then the model replies', async () => {
  expect(await runExample(new URL('../src/main.ts', import.meta.url))).toEqual({
    stdout: [
      'tutor: [call dict_define({"word":"tool"})]',
      'tutor: [response dict_define: {"word":"tool","definition":"a thing that helps do a job"}]',
      'tutor: A tool is a thing that helps do a job.',
    ],
    stderr: [],
    exitCode: 0,
  });
});
