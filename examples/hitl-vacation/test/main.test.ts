// The example's two roles, each run as `node dist/main.js <role> <file>` would, on one SQLite file
// and nothing else: the employee's run pauses and its service is closed; the manager's lists the
// pending confirmation from the stored events alone and resumes it with a payload (HC-1, HC-4,
// HC-10). `npm run example -- hitl-vacation` starts the two as two real processes: the release
// test runs that command. Bad input tried: the manager first (nothing waits), the manager twice,
// an unknown role.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExample, type ExampleRun } from '@adkit/test-support';
import { expect, it, onTestFinished } from 'vitest';

const main = new URL('../src/main.ts', import.meta.url);

/** Runs the example with `args` as its command-line arguments. */
async function run(...args: string[]): Promise<ExampleRun> {
  const saved = process.argv;
  process.argv = [process.execPath, 'dist/main.js', ...args];
  try {
    return await runExample(main);
  } finally {
    process.argv = saved;
  }
}

function sessionsFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'adkit-vacation-test-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'sessions.db');
}

it('HC-1, HC-4, HC-10: the employee asks and ends, the request waits in the file; the manager approves 3 of 5 days', async () => {
  const file = sessionsFile();
  expect(await run('employee', file)).toEqual({
    stdout: [
      '[employee] [call request_vacation_days({"days":5})]',
      '[employee] [response request_vacation_days: {"status":"Waiting for the manager."}]',
      '[employee] (paused: waiting for the manager)',
    ],
    stderr: [],
    exitCode: 0,
  });
  expect(await run('manager', file)).toEqual({
    stdout: [
      '[manager] sees: Approve 5 vacation days? {"days":5}',
      '[manager] [response request_vacation_days: {"status":"Approved.","days":3}]',
      '[manager] Your manager approved 3 of the 5 days.',
    ],
    stderr: [],
    exitCode: 0,
  });
  // Answered once: nothing waits any more.
  expect(await run('manager', file)).toEqual({ stdout: [], stderr: [`[manager] no request waits for approval in ${file}; run the employee first.`], exitCode: 1 });
});

it('the manager before the employee: says nothing waits, exit code 1; an unknown role: the usage line', async () => {
  const file = sessionsFile();
  expect((await run('manager', file)).exitCode).toBe(1);
  expect(await run('boss', file)).toEqual({ stdout: [], stderr: ['Usage: node dist/main.js [employee <file> | manager <file>]'], exitCode: 1 });
});
