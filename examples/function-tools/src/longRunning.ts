import { createUserContent, InMemoryRunner, LlmAgent, stringifyContent, type Event } from '@adkit/flow';
import { functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

// Long-running: the tool starts the work and returns nothing ("no response yet"); the run pauses.
// Later the app sends the call's function response with the outcome, and the model answers.
export const createTicket = functionTool({
  name: 'create_ticket',
  description: 'Opens a support ticket; a human answers later.',
  parameters: Type.Object({ summary: Type.String() }),
  isLongRunning: true,
  execute: ({ summary }, ctx) => {
    ctx.state.set('open_ticket', { summary, callId: ctx.functionCallId }); // e.g. queue it
    return undefined;
  },
});

export async function longRunningExample(): Promise<string[]> {
  const model = new ScriptedModel([
    functionCallResponse([{ name: 'create_ticket', args: { summary: 'printer on fire' }, id: 'call-1' }]),
    textResponse('Ticket T-7 is resolved: the printer was replaced.'),
  ]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'helpdesk', model, tools: [createTicket] }), autoCreateSession: true });
  const lines: string[] = [];
  const turn = async (message: Parameters<typeof createUserContent>[0]) => {
    for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: createUserContent(message) }))
      lines.push(describe(event));
  };
  await turn('My printer is on fire.'); // pauses after the call
  await turn([{ functionResponse: { id: 'call-1', name: 'create_ticket', response: { ticket: 'T-7', status: 'resolved' } } }]);
  return lines;
}

function describe(event: Event): string {
  if (!event.content) return `${event.author}: state ${JSON.stringify(event.actions.stateDelta)}`;
  const pending = event.longRunningToolIds?.length ? ` (waiting for ${event.longRunningToolIds.join(', ')})` : '';
  return `${event.author}: ${stringifyContent(event)}${pending}`;
}
