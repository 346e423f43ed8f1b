import { createConfirmationReply, pendingConfirmations } from '@adkit/confirmation';
import { InMemoryRunner, LlmAgent, createUserContent, stringifyContent, type Content } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

// ADK's vacation example: the manager approves up to the days requested.
const requestVacation = functionTool({
  name: 'request_vacation_days',
  description: 'Asks the manager to approve vacation days.',
  parameters: Type.Object({ days: Type.Integer({ minimum: 1 }) }),
  execute: ({ days }, ctx) => {
    if (!ctx.toolConfirmation) {
      ctx.requestConfirmation({ hint: `Approve ${days} days?`, payload: { days_approved: 0 } });
      return { status: 'Waiting for the manager.' };
    }
    if (!ctx.toolConfirmation.confirmed) return { status: 'Rejected.' };
    const { days_approved } = ctx.toolConfirmation.payload as { days_approved: number };
    return { status: 'Approved.', days: Math.min(days_approved, days) };
  },
});
const model = new ScriptedModel([functionCallResponse([{ name: 'request_vacation_days', args: { days: 5 } }]), textResponse('You have 3 days off.')]);
const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'hr', model, tools: [requestVacation] }), autoCreateSession: true });
const send = async (newMessage: Content) => {
  for await (const event of runner.runAsync({ userId: 'ann', sessionId: 's1', newMessage }))
    if (event.errorCode) {
      console.error(`${event.author}: ${event.errorCode}: ${event.errorMessage}`);
      process.exitCode = 1;
    } else if (event.content) console.log(stringifyContent(event)); // skips bookkeeping events with no content
};

await send(createUserContent('I want 5 days off.')); // pauses for the manager
const session = await runner.sessionService.getSession({ appName: runner.appName, userId: 'ann', sessionId: 's1' });
const [request] = await pendingConfirmations(session!); // pass { confirmationSecret } when the runner has one
console.log(`manager sees: ${request!.hint}`);
await send(createConfirmationReply(request!, { confirmed: true, payload: { days_approved: 3 } }));
