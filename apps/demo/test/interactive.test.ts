// `npm run demo -- --interactive`, driven as a user would pipe it: the built demo in a child
// process, answers on stdin. Approve one call and reject another; edit a payload (after a line
// that is not JSON); answer a long-running call as the manager; with --db, a pending approval
// survives the process ending and is answered by the next one. Bad input tried: a `__proto__`
// message, a blank line, a payload that is not JSON, stdin ending in the middle of a question,
// SIGINT while the chat waits for input.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'adkit-demo-chat-'));

// The child runs the build (as `npm run demo` does); bring it up to date first.
beforeAll(() => void execFileSync(join(root, 'node_modules/.bin/tsc'), ['-b', 'apps/demo'], { cwd: root, stdio: 'pipe' }), 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the chat with these lines on stdin, offline (no API keys in its environment). With
 * `interruptWhen`, stdin stays open and the child gets SIGINT once its output satisfies it.
 */
function chat(lines: string[], args: string[] = [], interruptWhen?: (stdout: string) => boolean): Promise<{ stdout: string[]; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, '--interactive', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: dir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (interruptWhen && !interrupted && interruptWhen(stdout)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const deadline = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(deadline);
      const all = stdout.split('\n');
      resolve({ stdout: all.slice(all.findIndex((line) => line.startsWith('(session') || line.startsWith('(resuming'))), stderr, code });
    });
    const input = lines.map((line) => `${line}\n`).join('');
    if (interruptWhen) child.stdin.write(input);
    else child.stdin.end(input);
  });
}

describe.concurrent('the interactive chat over piped stdin (two children at once)', { timeout: 60_000 }, () => {
  it('HC-2, HC-3: approves one call and rejects another; odd input gets help, never a crash', async () => {
    const { stdout, stderr, code } = await chat(['Book me 2 nights in Oslo', 'y', '', '{"__proto__":{"polluted":true}}', 'I would like 4 days off', 'n', '/quit']);
    expect(stdout.slice(0, 14)).toEqual([
      '(session chat-1)',
      'you> Book me 2 nights in Oslo',
      'assistant → book_trip({"city":"Oslo","nights":2})',
      '  ⏸ book_trip is waiting for your approval',
      'approve book_trip({"city":"Oslo","nights":2})? [y]es / [n]o / [l]ater: y',
      '  book_trip ← {"reference":"OSL-1001","city":"Oslo","nights":2,"status":"confirmed"}',
      'assistant: Booked 2 nights in Oslo; your reference is OSL-1001.',
      'you> ',
      'you> {"__proto__":{"polluted":true}}',
      expect.stringMatching(/^assistant: I am the offline demo brain, so I only understand a few requests/),
      'you> I would like 4 days off',
      'assistant → request_vacation_days({"days":4})',
      '  ⏸ request_vacation_days is waiting for your approval: Approve 4 vacation days? Fill in days_approved.',
      'approve request_vacation_days({"days":4})? [y]es / [n]o / [l]ater: n',
    ]);
    expect(stdout.slice(14)).toEqual([
      '  request_vacation_days ✗ error tool "request_vacation_days" call is rejected',
      'assistant: You rejected request_vacation_days, so I did not do it.',
      'you> /quit',
      '',
    ]);
    expect({ stderr, code }).toEqual({ stderr: '', code: 0 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('#31: "later" sticks: the deferred booking is not asked again after the next turn, only on /pending; an invalid answer is explained', async () => {
    const { stdout, stderr, code } = await chat(['Book me 2 nights in Oslo', 'maybe', 'l', 'I would like 4 days off', 'n', '/pending', 'y', '/quit']);
    expect(stdout).toEqual([
      '(session chat-1)',
      'you> Book me 2 nights in Oslo',
      'assistant → book_trip({"city":"Oslo","nights":2})',
      '  ⏸ book_trip is waiting for your approval',
      'approve book_trip({"city":"Oslo","nights":2})? [y]es / [n]o / [l]ater: maybe',
      '("maybe" is not an answer here: type y to approve, n to reject, or l to leave it for later)',
      'approve book_trip({"city":"Oslo","nights":2})? [y]es / [n]o / [l]ater: l',
      '(book_trip({"city":"Oslo","nights":2}) waits for later: type /pending to answer it)',
      'you> I would like 4 days off',
      'assistant → request_vacation_days({"days":4})',
      '  ⏸ request_vacation_days is waiting for your approval: Approve 4 vacation days? Fill in days_approved.',
      // The vacation request is asked about; the booking left for later is not.
      'approve request_vacation_days({"days":4})? [y]es / [n]o / [l]ater: n',
      '  request_vacation_days ✗ error tool "request_vacation_days" call is rejected',
      'assistant: You rejected request_vacation_days, so I did not do it.',
      '(left for later: book_trip; /pending asks again)',
      'you> /pending',
      '(waiting: book_trip)',
      'approve book_trip({"city":"Oslo","nights":2})? [y]es / [n]o / [l]ater: y',
      '  book_trip ← {"reference":"OSL-1001","city":"Oslo","nights":2,"status":"confirmed"}',
      'assistant: Booked 2 nights in Oslo; your reference is OSL-1001.',
      'you> /quit',
      '',
    ]);
    expect({ stderr, code }).toEqual({ stderr: '', code: 0 });
  });

  it('Ctrl+C (SIGINT) while it waits for input ends the chat cleanly: the process exits on its own (the MCP server closed), code 0', async () => {
    const { stdout, stderr, code } = await chat(['List the shared folder'], [], (out) => out.endsWith('trip-ideas.txt, welcome.txt.\nyou> '));
    expect(stdout.slice(-3)).toEqual(['assistant: The shared folder holds trip-ideas.txt, welcome.txt.', 'you> ', '']);
    expect({ stderr, code }).toEqual({ stderr: '', code: 0 });
  });

  it('HC-8: with --db, an approval pending when stdin ends is answered by the next process', async () => {
    const db = join(dir, 'sessions.db');
    const first = await chat(['Please reimburse $300 for a conference ticket'], ['--db', db]);
    expect(first.stdout).toEqual([
      '(session chat-1)',
      'you> Please reimburse $300 for a conference ticket',
      'assistant → ask_for_approval({"purpose":"conference ticket","amount":300}) (long-running)',
      '  ⏳ ask_for_approval answers later; for now: {"status":"pending","purpose":"conference ticket","amount":300,"ticketId":"reimbursement-ticket-001"}',
      "assistant: Your $300 claim for conference ticket needs the manager's approval; ticket reimbursement-ticket-001 is pending.",
      'ask_for_approval waits for the manager: {"status":"pending","purpose":"conference ticket","amount":300,"ticketId":"reimbursement-ticket-001"}',
      'as the manager, approve ask_for_approval({"purpose":"conference ticket","amount":300})? [y]es / [n]o / [l]ater: ',
      '(input ended; what waits stays in the session: run again with the same --db to answer it)',
      '',
    ]);
    expect(first.code).toBe(0);

    const second = await chat(['y', '5 days of vacation please', 'y', 'three days', '{"days_approved":2}', '/quit'], ['--db', db]);
    expect(second.stdout).toEqual([
      '(resuming session chat-1: 4 events; waiting: ask_for_approval (for the manager))',
      'ask_for_approval waits for the manager: {"status":"pending","purpose":"conference ticket","amount":300,"ticketId":"reimbursement-ticket-001"}',
      'as the manager, approve ask_for_approval({"purpose":"conference ticket","amount":300})? [y]es / [n]o / [l]ater: y',
      'assistant → reimburse({"purpose":"conference ticket","amount":300})',
      '  reimburse ← {"status":"ok","purpose":"conference ticket","amount":300}',
      'assistant: Reimbursed $300 for conference ticket.',
      'you> 5 days of vacation please',
      'assistant → request_vacation_days({"days":5})',
      '  ⏸ request_vacation_days is waiting for your approval: Approve 5 vacation days? Fill in days_approved.',
      'approve request_vacation_days({"days":5})? [y]es / [n]o / [l]ater: y',
      'payload {"days_approved":5} (Enter keeps it, or type JSON): three days',
      expect.stringMatching(/^\(not JSON: /),
      'payload {"days_approved":5} (Enter keeps it, or type JSON): {"days_approved":2}',
      '  request_vacation_days ← {"status":"Approved.","days_requested":5,"days_approved":2}',
      'assistant: Your manager approved 2 of the 5 vacation days you asked for.',
      'you> /quit',
      '',
    ]);
    expect({ stderr: second.stderr, code: second.code }).toEqual({ stderr: '', code: 0 });
  });
});
