import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REQUEST_CONFIRMATION, createConfirmationReply, pendingConfirmations } from '@adkit/confirmation';
import { LlmAgent, Runner, createUserContent, getFunctionCalls, stringifyContent, type Content, type Model } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import { SqliteSessionService } from '@adkit/session-sqlite';
import Type from 'typebox';

// The employee asks; the manager decides how many days, maybe days later, in another process.
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
const dir = mkdtempSync(join(tmpdir(), 'adkit-vacation-'));
const file = join(dir, 'sessions.db');
/** One process's runner: the session lives in the SQLite file, not in the process. */
const office = (model: Model) =>
  new Runner({
    appName: 'hr',
    agent: new LlmAgent({ name: 'hr', model, tools: [requestVacation] }),
    sessionService: new SqliteSessionService({ path: file }),
    autoCreateSession: true,
  });
const send = async (runner: Runner, newMessage: Content) => {
  for await (const event of runner.runAsync({ userId: 'ann', sessionId: 'vacation', newMessage }))
    if (getFunctionCalls(event).some((call) => call.name === REQUEST_CONFIRMATION)) console.log('(paused: waiting for the manager)');
    else if (event.content) console.log(stringifyContent(event));
};

const monday = office(new ScriptedModel([functionCallResponse([{ name: 'request_vacation_days', args: { days: 5 } }])]));
await send(monday, createUserContent('I would like 5 days off in May.'));
await (monday.sessionService as SqliteSessionService).close(); // the process ends; the request waits in the file

const thursday = office(new ScriptedModel([textResponse('Your manager approved 3 of the 5 days.')]));
const session = await thursday.sessionService.getSession({ appName: 'hr', userId: 'ann', sessionId: 'vacation' });
const [request] = pendingConfirmations(session!.events);
console.log(`manager sees: ${request!.hint} ${JSON.stringify(request!.originalCall.args)}`);
await send(thursday, createConfirmationReply(request!, { confirmed: true, payload: { days_approved: 3 } }));
await (thursday.sessionService as SqliteSessionService).close();
rmSync(dir, { recursive: true, force: true });
