// Issue #23 point 1 in the demo: the demo brain acts on the call a late answer names, not on the
// newest request. Through the real flow, the demo's real tools and the demo brain as the model:
// two claims wait for the manager and the first is approved; a booking is approved after a
// later turn. (Before: the brain reimbursed the newest claim, and did not know a booking happened.)
import { createConfirmationReply, pendingConfirmations } from '@adkit/confirmation';
import { createUserContent, InMemoryRunner, LlmAgent, stringifyContent, type Content, type Event } from '@adkit/flow';
import { describe, expect, it } from 'vitest';
import { DemoBrain } from '../src/demoBrain.js';
import { askForApproval, reimburse } from '../src/expenseTools.js';
import { bookTrip, getWeather } from '../src/travelTools.js';

async function conversation() {
  const agent = new LlmAgent({ name: 'assistant', model: new DemoBrain(), tools: [askForApproval, reimburse, bookTrip, getWeather] });
  const runner = new InMemoryRunner({ agent, appName: 'demo' });
  await runner.sessionService.createSession({ appName: 'demo', userId: 'ann', sessionId: 's' });
  const send = async (message: Content | string) => {
    const events: Event[] = [];
    const newMessage = typeof message === 'string' ? createUserContent(message) : message;
    for await (const event of runner.runAsync({ userId: 'ann', sessionId: 's', newMessage })) events.push(event);
    return events;
  };
  const session = async () => (await runner.sessionService.getSession({ appName: 'demo', userId: 'ann', sessionId: 's' }))!;
  return { send, session };
}

const said = (events: readonly Event[]) => events.filter((event) => event.content?.parts?.some((part) => part.text)).map(stringifyContent);

describe('the demo brain and late answers (issue #23 point 1)', () => {
  it('FL-15: the manager approves the earlier of two claims: that claim is reimbursed, not the newest', async () => {
    const { send, session } = await conversation();
    const dinner = (await send('Please reimburse $480 for the client dinner.')).flatMap((e) => e.content?.parts ?? []).find((p) => p.functionCall)!.functionCall!;
    await send('Please reimburse $300 for the hotel upgrade.');
    const events = await send(
      createUserContent([{ functionResponse: { id: dinner.id, name: 'ask_for_approval', response: { status: 'approved', ticketId: 'reimbursement-ticket-001' } } }]),
    );
    const paid = events.flatMap((e) => e.content?.parts ?? []).flatMap((p) => (p.functionCall ? [p.functionCall] : []));
    expect(paid.map(({ name, args }) => ({ name, args }))).toEqual([{ name: 'reimburse', args: { purpose: 'client dinner', amount: 480 } }]);
    expect(said(events).at(-1)).toBe('Reimbursed $480 for client dinner.');
    expect((await session()).state['user:reimbursed']).toBe(480);
  });

  it('HC-8: a booking approved after another turn is told as the booking it is', async () => {
    const { send, session } = await conversation();
    await send('Book me 3 nights in Lisbon, please.');
    await send("What's the weather in Oslo?");
    const [request] = pendingConfirmations((await session()).events);
    const events = await send(createConfirmationReply(request!, { confirmed: true }));
    expect(said(events).at(-1)).toBe('Booked 3 nights in Lisbon; your reference is LIS-1001.');
  });
});
