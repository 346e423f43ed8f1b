// What a client shows as waiting for an outside answer (FL-15): long-running calls and calls a
// resumable tool paused, until the client answers. Bad input tried: an interim answer from the
// tool, an error answer, a confirmation request, a call answered twice.
import { describe, expect, it } from 'vitest';
import { InMemoryRunner, LlmAgent, createUserContent, pendingLongRunningCalls, type Event } from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool } from './support.js';

async function send(runner: InMemoryRunner, message: Parameters<InMemoryRunner['runAsync']>[0]['newMessage']) {
  for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: message }));
  return (await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId: 's' }))!.events as Event[];
}

describe('pendingLongRunningCalls', () => {
  it('lists long-running and resumable-paused calls with their interim answers until the client answers', async () => {
    const ticket = rawTool('open_ticket', () => ({ status: 'pending', ticket: 7 }), { isLongRunning: true });
    const job = { ...rawTool('start_job', () => undefined), resume: async (_ctx: unknown, answer: Record<string, unknown>) => answer };
    const failing = rawTool('flaky', () => Promise.reject(new Error('down')), { isLongRunning: true });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'open_ticket', id: 't' }, { name: 'start_job', id: 'j' }, { name: 'flaky', id: 'f' }]),
      textResponse('Ticket 7 is closed.'),
    ]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model, tools: [ticket, job, failing] }), autoCreateSession: true });
    let events = await send(runner, createUserContent('go'));
    expect(pendingLongRunningCalls(events).map((p) => [p.call.id, p.author, p.interim])).toEqual([
      ['t', 'a', { status: 'pending', ticket: 7 }],
      ['j', 'a', undefined],
    ]);
    events = await send(runner, { role: 'user', parts: [{ functionResponse: { id: 't', name: 'open_ticket', response: { closed: true } } }] });
    expect(pendingLongRunningCalls(events).map((p) => p.call.id)).toEqual(['j']);
  });
});
