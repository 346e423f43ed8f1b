import { InMemoryRunner, LlmAgent, createUserContent, getFunctionCalls, stringifyContent, type Content, type FunctionCall } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

// ADK's reimbursement example: over $100 the manager must approve, and answers later.
const askForApproval = functionTool({
  name: 'ask_for_approval',
  description: 'Asks the manager to approve a reimbursement.',
  parameters: Type.Object({ purpose: Type.String(), amount: Type.Number() }),
  isLongRunning: true, // the run pauses after this call; its real answer comes later
  execute: ({ purpose, amount }) => ({ status: 'pending', purpose, amount, ticketId: 'reimbursement-ticket-001' }),
});
const reimburse = functionTool({
  name: 'reimburse',
  description: 'Pays the amount back to the employee.',
  parameters: Type.Object({ purpose: Type.String(), amount: Type.Number() }),
  execute: () => ({ status: 'ok' }),
});
const model = new ScriptedModel([
  functionCallResponse([{ name: 'ask_for_approval', args: { purpose: 'client dinner', amount: 480 } }]),
  textResponse('Your $480 claim waits for the manager (ticket reimbursement-ticket-001).'),
  functionCallResponse([{ name: 'reimburse', args: { purpose: 'client dinner', amount: 480 } }]),
  textResponse('The manager approved it: $480 is on its way.'),
]);
const agent = new LlmAgent({ name: 'expenses', model, tools: [askForApproval, reimburse] });
const runner = new InMemoryRunner({ agent, autoCreateSession: true });
let paused: FunctionCall | undefined;
const send = async (newMessage: Content) => {
  for await (const event of runner.runAsync({ userId: 'ann', sessionId: 's1', newMessage })) {
    if (event.errorCode) {
      console.error(`${event.author}: ${event.errorCode}: ${event.errorMessage}`);
      process.exitCode = 1;
    } else console.log(stringifyContent(event));
    paused ??= getFunctionCalls(event).find((call) => event.longRunningToolIds?.includes(call.id!));
  }
};

await send(createUserContent('Please reimburse $480 for the client dinner.'));
// Minutes or days later, the manager approves: the app answers the paused call, by its id.
const approval = { status: 'approved', ticketId: 'reimbursement-ticket-001' };
if (paused) await send(createUserContent([{ functionResponse: { id: paused.id, name: paused.name, response: approval } }]));
