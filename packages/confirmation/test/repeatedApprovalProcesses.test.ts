// #23 point 3 across processes: the same approval delivered to two processes on one SQLite file
// while the approved tool runs in the first. The tool runs once, in the first process, whose
// result is saved and reaches the model; the second process is refused (`CALL_IN_PROGRESS`) and
// saves nothing; nothing says "interrupted". A third delivery after the answer is refused as used.
// Each process is a real child process (test/fixtures/payProcess.mjs); a kill -9 in the middle of
// the tool is test/crash.test.ts, which still reads as interrupted.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFunctionResponses } from '@adkit/flow';
import { SqliteSessionService } from '@adkit/session-sqlite';
import { afterEach, expect, it } from 'vitest';
import { runProcess } from './payProcess.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('#23 point 3: two processes get the same approval while the tool runs in one: it runs once, its result is kept, the other is refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'adkit-repeated-'));
  dirs.push(dir);
  const db = join(dir, 'sessions.db');
  const ledger = join(dir, 'ledger.jsonl');
  const payments = () => (existsSync(ledger) ? readFileSync(ledger, 'utf8').trim().split('\n').length : 0);
  await runProcess([db, ledger, 'ask', '0']);

  let running = false;
  const first = runProcess([db, ledger, 'approve-and-hold', '0'], () => ((running = payments() === 1), false));
  while (!running) await new Promise((resolve) => setTimeout(resolve, 20));

  const second = await runProcess([db, ledger, 'approve', '0']);
  expect(second.lines.map((line) => [line.errorCode, line.errorMessage])).toEqual([
    [
      'CALL_IN_PROGRESS',
      'Reply refused: call "p1" of tool "pay" is still running on this machine. This answer was already delivered; the result is saved when the call finishes. Nothing of this message was saved or run.',
    ],
  ]);

  writeFileSync(`${ledger}.release`, '');
  const { lines } = await first;
  expect(lines.flatMap((line) => line.responses).find((r) => r.id === 'p1')!.response).toEqual({ paid: 100 });
  expect(lines.at(-1)!.text).toContain('"paid":100');
  expect(payments()).toBe(1);

  const store = new SqliteSessionService({ path: db });
  try {
    const events = (await store.getSession({ appName: 'bank', userId: 'u', sessionId: 's' }))!.events;
    expect(JSON.stringify(events)).not.toContain('interrupted');
    expect(events.filter((e) => e.author === 'user')).toHaveLength(2);
    expect(events.flatMap(getFunctionResponses).filter((r) => r.id === 'p1').at(-1)!.response).toEqual({ paid: 100 });
  } finally {
    await store.close();
  }

  const third = await runProcess([db, ledger, 'approve', '0']);
  expect(third.lines.map((line) => line.errorCode)).toEqual(['CONFIRMATION_ALREADY_USED']);
  expect(payments()).toBe(1);
}, 60_000);
