// Pins FL-8 and FL-15 (long-running tools) end to end: a run pauses on a long-running call and a
// later runAsync that carries that call's function response resumes the conversation.
import { describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  LlmAgent,
  SequentialAgent,
  createUserContent,
  getFunctionCalls,
  getFunctionResponses,
  isFinalResponse,
  type Event,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool } from './support.js';

async function collect(gen: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of gen) events.push(event);
  return events;
}

describe('long-running tools', () => {
  it('FL-8/FL-15: create_ticket pauses the run, and two later function responses each get an answer', async () => {
    const createTicket = rawTool(
      'create_ticket',
      (args, ctx) => {
        // State written by a long-running tool that returns nothing is kept.
        ctx.state.set('ticket_requested', args.summary);
        return undefined;
      },
      { isLongRunning: true },
    );
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'create_ticket', args: { summary: 'printer on fire' }, id: 'call-1' }]),
      textResponse('Ticket T-1 is open and pending.'),
      textResponse('Ticket T-1 is resolved.'),
    ]);
    const agent = new LlmAgent({ name: 'helpdesk', model, tools: [createTicket] });
    const runner = new InMemoryRunner({ agent, appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });

    // Turn 1: the model calls the tool and the run pauses.
    const turn1 = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('my printer is on fire') }));
    expect(turn1[0]!.longRunningToolIds).toEqual(['call-1']);
    expect(isFinalResponse(turn1[0]!)).toBe(true);
    expect(getFunctionResponses(turn1.at(-1)!)).toEqual([]);
    expect(model.requests).toHaveLength(1);
    let session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(session!.state.ticket_requested).toBe('printer on fire');

    // Turn 2: the app sends the ticket id as that call's function response.
    const reply = (response: Record<string, unknown>) =>
      createUserContent([{ functionResponse: { id: 'call-1', name: 'create_ticket', response } }]);
    const turn2 = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: reply({ ticket: 'T-1', status: 'pending' }) }));
    expect(turn2.map((e) => e.content?.parts?.[0]?.text)).toEqual(['Ticket T-1 is open and pending.']);
    const second = model.requests[1]!.contents;
    expect(second.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(second[2]!.parts![0]!.functionResponse).toEqual({
      id: 'call-1',
      name: 'create_ticket',
      response: { ticket: 'T-1', status: 'pending' },
    });

    // Turn 3: the final status arrives; it reaches the model as an update after its last answer.
    const turn3 = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: reply({ ticket: 'T-1', status: 'resolved' }) }));
    expect(turn3.map((e) => e.content?.parts?.[0]?.text)).toEqual(['Ticket T-1 is resolved.']);
    const third = model.requests[2]!.contents;
    expect(third.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
    expect(third[4]!.parts![0]!.text).toBe(
      'Update from function create_ticket: {"ticket":"T-1","status":"resolved"}\n' +
        'This is the latest answer to your earlier call create_ticket({"summary":"printer on fire"}) (id call-1).',
    );
    session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(session!.events.filter((e) => e.author === 'user')).toHaveLength(3);
  });

  it('FL-8/FL-6: only long-running calls are marked; a normal call in the same turn is answered and summarised', async () => {
    const wait = rawTool('approve_later', () => undefined, { isLongRunning: true });
    const now = rawTool('lookup', () => ({ found: true }));
    const model = new ScriptedModel([
      functionCallResponse([
        { name: 'approve_later', id: 'lr' },
        { name: 'lookup', id: 'n' },
      ]),
      textResponse('Found it; approval is pending.'),
    ]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model, tools: [wait, now] }), appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const events = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go') }));
    expect(events[0]!.longRunningToolIds).toEqual(['lr']);
    expect(getFunctionResponses(events[1]!).map((r) => r.id)).toEqual(['n']);
    expect(getFunctionCalls(events[0]!).map((c) => c.id)).toEqual(['lr', 'n']);
    // FL-6: the last event of the step is the (non-final) response event, so the model summarises.
    expect(model.requests).toHaveLength(2);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('Found it; approval is pending.');
  });

  it('a function response is routed to the agent that made the call (HC-7 routing)', async () => {
    const firstModel = new ScriptedModel([textResponse('first says hi')]);
    const secondModel = new ScriptedModel([
      functionCallResponse([{ name: 'ask_human', id: 'h1' }]),
      textResponse('the human said yes'),
    ]);
    const first = new LlmAgent({ name: 'first', model: firstModel });
    const second = new LlmAgent({
      name: 'second',
      model: secondModel,
      tools: [rawTool('ask_human', () => undefined, { isLongRunning: true })],
    });
    const runner = new InMemoryRunner({ agent: new SequentialAgent({ name: 'seq', subAgents: [first, second] }), appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('start') }));
    const resumed = await collect(
      runner.runAsync({
        userId: 'u',
        sessionId: 's',
        newMessage: createUserContent([{ functionResponse: { id: 'h1', name: 'ask_human', response: { answer: 'yes' } } }]),
      }),
    );
    expect(resumed.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([['second', 'the human said yes']]);
    expect(firstModel.requests).toHaveLength(1);
  });
});
