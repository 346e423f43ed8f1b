// Principle 2 and HC-8 across a restart: a run pauses with the SQLite store, everything is
// closed, and a new runner on the same file resumes from the saved events alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFunctionResponses, type Event, type Toolset } from '@adkit/flow';
import { functionCallResponse, textResponse } from '@adkit/flow/testing';
import { SqliteSessionService } from '@adkit/session-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { createConfirmationReply, pendingConfirmations, withConfirmation } from '../src/index.js';
import { Harness, recordingTool } from './support.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function databasePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'adkit-confirm-'));
  dirs.push(dir);
  return join(dir, 'sessions.db');
}

describe('resuming after a restart', () => {
  it('an approval given to a new process runs the approved call exactly once', async () => {
    const path = databasePath();
    const firstProcessTool = recordingTool('transfer_money', (args) => ({ sent: args.amount }));
    const toolset = (tool: typeof firstProcessTool): Toolset => withConfirmation({ name: 'bank', tools: async () => [tool] }, { require: true });

    const before = new SqliteSessionService({ path });
    const first = new Harness([functionCallResponse([{ name: 'transfer_money', args: { amount: 250 }, id: 'tx-1' }])], { toolsets: [toolset(firstProcessTool)] }, before);
    await first.send('send 250 to Bob');
    await first.runner.close();
    await before.close();
    expect(firstProcessTool.runs).toEqual([]);

    // A new process: new service, new runner, new tool instance, same database file.
    const after = new SqliteSessionService({ path });
    const secondProcessTool = recordingTool('transfer_money', (args) => ({ sent: args.amount }));
    const second = new Harness([textResponse('Sent 250 to Bob.'), textResponse('unused')], { toolsets: [toolset(secondProcessTool)] }, after);
    const pending = (await pendingConfirmations(await second.session()));
    expect(pending.map((p) => p.originalCall)).toEqual([{ id: 'tx-1', name: 'transfer_money', args: { amount: 250 } }]);
    const resumed = await second.send(createConfirmationReply(pending[0]!, { confirmed: true }));
    expect(secondProcessTool.runs).toEqual([{ args: { amount: 250 }, confirmed: true, payload: undefined }]);
    expect(getFunctionResponses(resumed[1]!)).toEqual([{ id: 'tx-1', name: 'transfer_money', response: { sent: 250 } }]);
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe('Sent 250 to Bob.');

    // Replaying the approval after yet another restart still runs nothing.
    await after.close();
    const third = new SqliteSessionService({ path });
    const thirdTool = recordingTool('transfer_money');
    const replay = await new Harness([], { toolsets: [toolset(thirdTool)] }, third).send(createConfirmationReply(pending[0]!, { confirmed: true }));
    expect(replay.map((e: Event) => e.errorCode)).toEqual(['CONFIRMATION_ALREADY_USED']);
    expect(thirdTool.runs).toEqual([]);
    await third.close();
  });

  it("a long-running tool's later function response resumes in a new process", async () => {
    const path = databasePath();
    const before = new SqliteSessionService({ path });
    const ticket = recordingTool('open_ticket', () => undefined, { isLongRunning: true });
    const first = new Harness([functionCallResponse([{ name: 'open_ticket', args: { title: 'VPN down' }, id: 'job-7' }])], { tools: [ticket] }, before);
    const paused = await first.send('VPN is down');
    expect(paused[0]!.longRunningToolIds).toEqual(['job-7']);
    await before.close();

    const after = new SqliteSessionService({ path });
    const second = new Harness([textResponse('Ticket 991 is open.')], { tools: [recordingTool('open_ticket', () => undefined, { isLongRunning: true })] }, after);
    const resumed = await second.send({
      role: 'user',
      parts: [{ functionResponse: { id: 'job-7', name: 'open_ticket', response: { ticket: 991 } } }],
    });
    expect(resumed.map((e) => e.content?.parts?.[0]?.text)).toEqual(['Ticket 991 is open.']);
    const history = second.model.requests[0]!.contents;
    expect(history.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(history[2]!.parts![0]!.functionResponse).toEqual({ id: 'job-7', name: 'open_ticket', response: { ticket: 991 } });
    await after.close();
  });
});
