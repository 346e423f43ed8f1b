// Issue #10, at most once across a crash: a process is killed with SIGKILL while an approved tool
// runs; the client re-sends the approval to a new process on the same SQLite file. The tool does
// not run a second time and the model is told the call was interrupted; a tool marked
// `idempotent: true` runs again, once. Each process is a real child process (test/fixtures).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./fixtures/payProcess.mjs', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Line {
  author: string;
  errorCode?: string;
  started?: string[];
  responses: { id: string; name: string; response: Record<string, unknown> }[];
  text?: string;
}

/** Runs one process to its end, or until `killWhen` holds, when it is killed with SIGKILL. */
function runProcess(args: string[], killWhen?: () => boolean): Promise<{ lines: Line[]; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const poll = killWhen
      ? setInterval(() => {
          if (killWhen()) child.kill('SIGKILL');
        }, 20)
      : undefined;
    const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearInterval(poll);
      clearTimeout(deadline);
      if (code !== 0 && signal === null) reject(new Error(`child exited with ${code}: ${stderr}`));
      else resolve({ lines: stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line), signal, stderr });
    });
  });
}

async function crashWhileApprovedToolRuns(idempotent: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'adkit-crash-'));
  dirs.push(dir);
  const db = join(dir, 'sessions.db');
  const ledger = join(dir, 'ledger.jsonl');
  const flag = idempotent ? '1' : '0';
  const payments = () => (existsSync(ledger) ? readFileSync(ledger, 'utf8').trim().split('\n').length : 0);

  const asked = await runProcess([db, ledger, 'ask', flag]);
  expect(asked.lines.map((line) => line.responses.map((r) => r.response))).toContainEqual([{ status: 'waiting for approval' }]);
  const killed = await runProcess([db, ledger, 'approve-and-hang', flag], () => payments() === 1);
  expect(killed.signal).toBe('SIGKILL');
  expect(payments()).toBe(1);
  // The marker was saved before the tool ran, so the new process knows the call started.
  expect(killed.lines.map((line) => line.started)).toContainEqual(['p1']);
  const resumed = await runProcess([db, ledger, 'approve', flag]);
  return { resumed: resumed.lines, payments: payments() };
}

describe('at most once across a crash (#10)', () => {
  it('kill -9 while the approved tool runs, approval re-sent to a new process: the tool does not run again; the model hears it was interrupted', async () => {
    const { resumed, payments } = await crashWhileApprovedToolRuns(false);
    expect(payments).toBe(1);
    const interrupted = resumed.flatMap((line) => line.responses).find((r) => r.id === 'p1');
    expect(interrupted?.response).toEqual({
      error:
        'Tool "pay" call "p1" was interrupted: the process stopped while it ran, so whether it took effect is unknown. It was not run again. Check its effect before trying again, or tell the user.',
    });
    expect(resumed.at(-1)!.text).toContain('was interrupted');
    expect(resumed.some((line) => line.started)).toBe(false);
  }, 60_000);

  it('the same with idempotent: true: the tool runs again, once, and the model sees its result', async () => {
    const { resumed, payments } = await crashWhileApprovedToolRuns(true);
    expect(payments).toBe(2);
    expect(resumed.flatMap((line) => line.responses).find((r) => r.id === 'p1')?.response).toEqual({ paid: 100 });
    expect(resumed.at(-1)!.text).toContain('"paid":100');
  }, 60_000);
});
