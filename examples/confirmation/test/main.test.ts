// The example runs as `node dist/main.js` would, offline: the first turn pauses on a confirmation
// request, the manager's reply resumes it and the call runs with the approved payload.
// (@adkit/confirmation's README test checks that its README shows src/main.ts and this output.)
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

it('HC-1, HC-4, HC-10: pauses for the manager, then runs the call with the approved days', async () => {
  const { stdout, stderr, exitCode } = await runExample(new URL('../src/main.ts', import.meta.url));
  // The confirmation request carries the original call's id (adk-<uuid>) and a sha-256 digest.
  const request = /"id":"(adk-[0-9a-f-]{36})".*"callDigest":"([0-9a-f]{64})"/;
  expect(stdout[2]).toMatch(request);
  const [, id, digest] = request.exec(stdout[2]!)!;
  expect(stdout).toEqual([
    '[call request_vacation_days({"days":5})]',
    '[response request_vacation_days: {"status":"Waiting for the manager."}]',
    `[call adk_request_confirmation({"originalFunctionCall":{"id":"${id}","name":"request_vacation_days","args":{"days":5}},` +
      `"toolConfirmation":{"confirmed":false,"hint":"Approve 5 days?","payload":{"days_approved":0}},"callDigest":"${digest}","formatVersion":3})]`,
    'manager sees: Approve 5 days?',
    '[response request_vacation_days: {"status":"Approved.","days":3}]',
    'You have 3 days off.',
  ]);
  expect({ stderr, exitCode }).toEqual({ stderr: [], exitCode: 0 });
});
