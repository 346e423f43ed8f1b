// The example runs as `node dist/main.js` would, offline: the long-running call pauses the run
// with a pending status the model words for the user; the manager's answer, sent later as that
// call's function response, reaches the model as an update and the model reimburses (FL-8, FL-15).
// Bad input tried: none from outside; the example pins the protocol's output.
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

it('FL-8, FL-15: ask_for_approval pauses the run; the manager answers later and the model reimburses', async () => {
  const { stdout, stderr, exitCode } = await runExample(new URL('../src/main.ts', import.meta.url));
  expect(stdout).toEqual([
    '[call ask_for_approval({"purpose":"client dinner","amount":480})]',
    '[response ask_for_approval: {"status":"pending","purpose":"client dinner","amount":480,"ticketId":"reimbursement-ticket-001"}]',
    'Your $480 claim waits for the manager (ticket reimbursement-ticket-001).',
    '[call reimburse({"purpose":"client dinner","amount":480})]',
    '[response reimburse: {"status":"ok"}]',
    'The manager approved it: $480 is on its way.',
  ]);
  expect({ stderr, exitCode }).toEqual({ stderr: [], exitCode: 0 });
});
