// The example runs as `node dist/main.js` would, offline: the request pauses in one runner whose
// session service is then closed; a second runner on the same SQLite file lists the pending
// confirmation from the stored events alone and resumes it with the manager's payload (HC-1, HC-4,
// HC-10). Bad input tried: none from outside; the file is all the second runner gets.
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

it('HC-1, HC-4, HC-10: the request waits in the file; another runner approves 3 of 5 days', async () => {
  const { stdout, stderr, exitCode } = await runExample(new URL('../src/main.ts', import.meta.url));
  expect(stdout).toEqual([
    '[call request_vacation_days({"days":5})]',
    '[response request_vacation_days: {"status":"Waiting for the manager."}]',
    '(paused: waiting for the manager)',
    'manager sees: Approve 5 vacation days? {"days":5}',
    '[response request_vacation_days: {"status":"Approved.","days":3}]',
    'Your manager approved 3 of the 5 days.',
  ]);
  expect({ stderr, exitCode }).toEqual({ stderr: [], exitCode: 0 });
});
