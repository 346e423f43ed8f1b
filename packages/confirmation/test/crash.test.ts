// Issue #10, at most once across a crash: a process is killed with SIGKILL while an approved tool
// runs; the client re-sends the approval to a new process on the same SQLite file. The tool does
// not run a second time and the model is told the call was interrupted; a tool marked
// `idempotent: true` runs again, once. Each process is a real child process (test/fixtures).
// #23 point 7: the same holds for a tool written with `functionTool`, `streamingFunctionTool` or
// as a `BaseTool` subclass, whose `idempotent` option used to be dropped.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runProcess } from './payProcess.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Kind = 'raw' | 'function' | 'streaming' | 'base';

async function crashWhileApprovedToolRuns(idempotent: boolean, kind: Kind = 'raw') {
  const dir = mkdtempSync(join(tmpdir(), 'adkit-crash-'));
  dirs.push(dir);
  const db = join(dir, 'sessions.db');
  const ledger = join(dir, 'ledger.jsonl');
  const flag = idempotent ? '1' : '0';
  const run = (mode: string, killWhen?: () => boolean) => runProcess([db, ledger, mode, flag, kind], killWhen);
  const payments = () => (existsSync(ledger) ? readFileSync(ledger, 'utf8').trim().split('\n').length : 0);

  const asked = await run('ask');
  expect(asked.lines.map((line) => line.responses.map((r) => r.response))).toContainEqual([
    kind === 'raw' ? { status: 'waiting for approval' } : { error: 'error tool "pay" requires confirmation, please approve or reject' },
  ]);
  const killed = await run('approve-and-hang', () => payments() === 1);
  expect(killed.signal).toBe('SIGKILL');
  expect(payments()).toBe(1);
  // The marker was saved before the tool ran, so the new process knows the call started.
  expect(killed.lines.map((line) => line.started)).toContainEqual(['p1']);
  const resumed = await run('approve');
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

describe('idempotent on functionTool, streamingFunctionTool and BaseTool, across kill -9 (#23 point 7)', () => {
  const paid: Record<Kind, Record<string, unknown>> = {
    raw: { paid: 100 },
    function: { paid: 100 },
    base: { paid: 100 },
    streaming: { result: 'paid 100' },
  };
  for (const kind of ['function', 'streaming', 'base'] as const) {
    it(`${kind}: idempotent: true runs again, once, after the crash, and the model sees its result`, async () => {
      const { resumed, payments } = await crashWhileApprovedToolRuns(true, kind);
      expect(payments).toBe(2);
      expect(resumed.flatMap((line) => line.responses).find((r) => r.id === 'p1')?.response).toEqual(paid[kind]);
    }, 60_000);

    it(`${kind}: without idempotent the call is reported interrupted and not run again`, async () => {
      const { resumed, payments } = await crashWhileApprovedToolRuns(false, kind);
      expect(payments).toBe(1);
      expect(resumed.flatMap((line) => line.responses).find((r) => r.id === 'p1')?.response).toEqual({
        error: expect.stringContaining('Tool "pay" call "p1" was interrupted'),
      });
    }, 60_000);
  }
});
