// FT-6 / FL-8 / FL-15: a long-running function tool pauses the run and a later function response
// resumes it; state and actions written by tools reach the session. Bad input tried: a resume
// message answering an unknown call id is just a user message (the model is asked again).
import { createUserContent, getFunctionResponses, LlmAgent } from '@adkit/flow';
import { functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { functionTool } from '../src/index.js';
import { session } from './support.js';

describe('long-running function tools', () => {
  it('FT-6/FL-15: undefined means "no response yet": the run pauses, state is kept, a later response resumes', async () => {
    const openTicket = functionTool({
      name: 'open_ticket',
      description: 'Opens a ticket that a human resolves later.',
      parameters: Type.Object({ summary: Type.String() }),
      isLongRunning: true,
      execute: ({ summary }, ctx) => {
        ctx.state.set('pending_ticket', summary);
        return undefined;
      },
    });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'open_ticket', args: { summary: 'printer on fire' }, id: 'call-1' }]),
      textResponse('Your ticket T-1 is resolved.'),
    ]);
    const { send, saved } = await session(new LlmAgent({ name: 'helpdesk', model, tools: [openTicket] }));

    const turn1 = await send('My printer is on fire.');
    expect(turn1[0]!.longRunningToolIds).toEqual(['call-1']);
    expect(turn1.flatMap(getFunctionResponses)).toEqual([]);
    expect(model.requests).toHaveLength(1);
    expect((await saved()).state.pending_ticket).toBe('printer on fire');
    // The declaration told the model not to call again.
    expect(model.requests[0]!.config.tools![0]!.functionDeclarations![0]!.description).toContain(
      'NOTE: This is a long-running operation.',
    );

    const turn2 = await send(
      createUserContent([{ functionResponse: { id: 'call-1', name: 'open_ticket', response: { ticket: 'T-1', status: 'resolved' } } }]),
    );
    expect(turn2.map((e) => e.content?.parts?.[0]?.text)).toEqual(['Your ticket T-1 is resolved.']);
    expect(model.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse).toEqual({
      id: 'call-1',
      name: 'open_ticket',
      response: { ticket: 'T-1', status: 'resolved' },
    });
  });

  it('FT-6: a long-running tool that returns a pending status answers now; the model then replies', async () => {
    const start = functionTool({
      name: 'start_export',
      description: 'Starts an export.',
      parameters: Type.Object({}),
      isLongRunning: true,
      execute: () => ({ status: 'pending', job: 'j-1' }),
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'start_export', id: 'x' }]), textResponse('Export j-1 started.')]);
    const { send } = await session(new LlmAgent({ name: 'exporter', model, tools: [start] }));
    const events = await send('export');
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({ status: 'pending', job: 'j-1' });
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('Export j-1 started.');
  });
});

describe('state and actions', () => {
  it('TC-10/TC-13: state writes reach the session (session, user: and app: scopes), actions ride on the response event', async () => {
    const remember = functionTool({
      name: 'remember',
      description: 'Remembers preferences.',
      parameters: Type.Object({ units: Type.Enum(['metric', 'imperial']), city: Type.String() }),
      execute: ({ units, city }, ctx) => {
        const visits = (ctx.state.get<number>('visits') ?? 0) + 1;
        ctx.state.set('visits', visits);
        ctx.state.set('user:units', units);
        ctx.state.set('app:last_city', city);
        ctx.state.set('temp:scratch', 'not saved');
        return { visits };
      },
    });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'remember', args: { units: 'metric', city: 'Oslo' } }]),
      textResponse('Noted.'),
    ]);
    const { send, saved, runner } = await session(new LlmAgent({ name: 'prefs', model, tools: [remember] }));
    const events = await send('I use metric, I live in Oslo.');
    expect(events[1]!.actions.stateDelta).toMatchObject({ visits: 1, 'user:units': 'metric', 'app:last_city': 'Oslo' });
    const stored = await saved();
    expect(stored.state).toEqual({ visits: 1, 'user:units': 'metric', 'app:last_city': 'Oslo' });
    expect(stored.events.find((e) => e.id === events[1]!.id)!.actions.stateDelta).toEqual({
      visits: 1,
      'user:units': 'metric',
      'app:last_city': 'Oslo',
    });
    const other = await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 'other' });
    expect(other.state).toEqual({ 'user:units': 'metric', 'app:last_city': 'Oslo' });
  });

  it('FL-17: a tool that sets skipSummarization ends the turn with its response', async () => {
    const { stateAndActionsExample } = await import('../../../examples/function-tools/src/stateAndActions.js');
    const { lines, state } = await stateAndActionsExample();
    expect(lines).toEqual([
      'shop: [call add_to_cart({"item":"apple","quantity":"3"})]',
      'shop: [response add_to_cart: {"cart":{"apple":3}}]',
    ]);
    expect(state).toEqual({ cart: { apple: 3 } });
  });
});
