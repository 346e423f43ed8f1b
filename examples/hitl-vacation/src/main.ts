// The employee asks in one process; the manager decides how many days in another, maybe days
// later. The two processes share one SQLite file and nothing else:
//   node dist/main.js employee <file>   asks for 5 days; the run pauses on the approval; the process ends
//   node dist/main.js manager <file>    finds the waiting request in the file and approves 3 of the days
// With no arguments (`npm run example -- hitl-vacation`) it starts the two, one after the other, on a temp file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REQUEST_CONFIRMATION, createConfirmationReply, pendingConfirmations } from '@adkit/confirmation';
import { LlmAgent, Runner, createUserContent, getFunctionCalls, stringifyContent, type Content, type Model } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import { SqliteSessionService } from '@adkit/session-sqlite';
import Type from 'typebox';

const requestVacation = functionTool({
  name: 'request_vacation_days',
  description: 'Asks the manager to approve vacation days.',
  parameters: Type.Object({ days: Type.Integer({ minimum: 1 }) }),
  execute: ({ days }, ctx) => {
    if (!ctx.toolConfirmation) {
      ctx.requestConfirmation({ hint: `Approve ${days} vacation days?`, payload: { days_approved: 0 } });
      return { status: 'Waiting for the manager.' };
    }
    if (!ctx.toolConfirmation.confirmed) return { status: 'Rejected by the manager.' };
    const { days_approved } = ctx.toolConfirmation.payload as { days_approved: number };
    return { status: 'Approved.', days: Math.min(days_approved, days) };
  },
});
const key = { appName: 'hr', userId: 'ann', sessionId: 'vacation' };
/** This process's runner: the session lives in the SQLite file, not in the process. */
const office = (file: string, model: Model) =>
  new Runner({
    appName: key.appName,
    agent: new LlmAgent({ name: 'hr', model, tools: [requestVacation] }),
    sessionService: new SqliteSessionService({ path: file }),
    autoCreateSession: true,
  });
const send = async (who: string, runner: Runner, newMessage: Content) => {
  for await (const event of runner.runAsync({ ...key, newMessage }))
    if (event.errorCode) {
      console.error(`[${who}] ${event.errorCode}: ${event.errorMessage}`);
      process.exitCode = 1;
    } else if (getFunctionCalls(event).some((call) => call.name === REQUEST_CONFIRMATION)) console.log(`[${who}] (paused: waiting for the manager)`);
    else if (event.content) console.log(`[${who}] ${stringifyContent(event)}`);
};

async function employee(file: string) {
  const runner = office(file, new ScriptedModel([functionCallResponse([{ name: 'request_vacation_days', args: { days: 5 } }])]));
  await send('employee', runner, createUserContent('I would like 5 days off in May.'));
  await (runner.sessionService as SqliteSessionService).close(); // the process ends; the request waits in the file
}

async function manager(file: string) {
  const runner = office(file, new ScriptedModel([textResponse('Your manager approved 3 of the 5 days.')]));
  const session = await runner.sessionService.getSession(key);
  const [request] = pendingConfirmations(session?.events ?? []);
  if (!request) {
    console.error(`[manager] no request waits for approval in ${file}; run the employee first.`);
    process.exitCode = 1;
  } else {
    console.log(`[manager] sees: ${request.hint} ${JSON.stringify(request.originalCall.args)}`);
    await send('manager', runner, createConfirmationReply(request, { confirmed: true, payload: { days_approved: 3 } }));
  }
  await (runner.sessionService as SqliteSessionService).close();
}

const [role, file] = process.argv.slice(2);
if ((role === 'employee' || role === 'manager') && file) await (role === 'employee' ? employee(file) : manager(file));
else if (role) {
  console.error('Usage: node dist/main.js [employee <file> | manager <file>]');
  process.exitCode = 1;
} else {
  // One process for each, one after the other, sharing only the file.
  const dir = mkdtempSync(join(tmpdir(), 'adkit-vacation-'));
  try {
    for (const who of ['employee', 'manager']) {
      const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), who, join(dir, 'sessions.db')], { stdio: 'inherit' });
      if (run.status !== 0) {
        process.exitCode = run.status ?? 1;
        break;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
