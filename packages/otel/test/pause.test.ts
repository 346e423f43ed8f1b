// Paused and resumed calls: a confirmation (HC-1, HC-8) and a long-running call (FT-6, FL-8) end
// their spans as paused, and the run that resumes them links to those spans — through session
// state only, so it also works in another process: each resume here runs in a new Runner with a
// new plugin instance, sharing nothing with the first but the session store. Bad input tried: a
// saved link that is not a traceparent, and a rejected confirmation.
import {
  InMemorySessionService,
  LlmAgent,
  REQUEST_CONFIRMATION_FUNCTION,
  Runner,
  createUserContent,
  getFunctionCalls,
  type Content,
  type Event,
  type Model,
  type Tool,
} from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import { SpanStatusCode } from '@opentelemetry/api';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { PAUSED_SPANS_STATE_KEY, otelPlugin } from '../src/index.js';
import { inMemoryTracing } from './support/tracing.js';

const KEY = { appName: 'bank', userId: 'u1', sessionId: 's1' };

/** A "process": a runner with its own plugin and tracer over the shared session store. */
function newProcess(sessions: InMemorySessionService, model: Model, tools: Tool[]) {
  const tracing = inMemoryTracing();
  const runner = new Runner({
    appName: KEY.appName,
    agent: new LlmAgent({ name: 'teller', model, tools }),
    sessionService: sessions,
    plugins: [otelPlugin({ tracer: tracing.tracer })],
    autoCreateSession: true,
  });
  const send = async (newMessage: Content): Promise<Event[]> => {
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: KEY.userId, sessionId: KEY.sessionId, newMessage })) events.push(event);
    return events;
  };
  return { tracing, send };
}

function confirmationReply(events: readonly Event[], confirmed: boolean): Content {
  const request = events.flatMap((event) => getFunctionCalls(event)).find((call) => call.name === REQUEST_CONFIRMATION_FUNCTION);
  if (!request?.id) throw new Error('no confirmation request');
  return { role: 'user', parts: [{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION_FUNCTION, response: { confirmed } } }] };
}

describe('paused and resumed calls', () => {
  const transfer = () =>
    functionTool({
      name: 'transfer_money',
      description: 'Transfers money.',
      parameters: Type.Object({ amount: Type.Number() }),
      requireConfirmation: true,
      execute: ({ amount }) => ({ transferred: amount }),
    });

  it('HC-1, HC-8: a paused confirmation ends its spans as paused; the resume links to the paused call', async () => {
    const sessions = new InMemorySessionService();
    const model = new ScriptedModel([functionCallResponse([{ name: 'transfer_money', args: { amount: 50 }, id: 'call_1' }]), textResponse('Sent 50.')]);
    const first = newProcess(sessions, model, [transfer()]);
    const paused = await first.send(createUserContent('send 50'));

    const pausedTool = first.tracing.span('execute_tool transfer_money');
    expect(pausedTool.status.code).toBe(SpanStatusCode.UNSET);
    expect(pausedTool.attributes).toMatchObject({ 'adkit.outcome': 'paused', 'adkit.pause.reason': 'confirmation' });
    expect(pausedTool.attributes).not.toHaveProperty('error.type');
    expect(first.tracing.span('invoke_agent teller').attributes).toMatchObject({
      'adkit.outcome': 'paused',
      'adkit.pause.reason': 'confirmation',
    });
    const { traceId, spanId } = pausedTool.spanContext();
    const session = await sessions.getSession(KEY);
    expect(session!.state[PAUSED_SPANS_STATE_KEY]).toEqual({ call_1: `00-${traceId}-${spanId}-01` });

    const second = newProcess(sessions, model, [transfer()]);
    await second.send(confirmationReply(paused, true));
    const link = { context: expect.objectContaining({ traceId, spanId }) };
    const resumedRun = second.tracing.span('invoke_agent teller');
    expect(resumedRun.links).toEqual([expect.objectContaining(link)]);
    expect(resumedRun.attributes).toMatchObject({ 'adkit.resumed': true, 'adkit.outcome': 'completed' });
    const resumedTool = second.tracing.span('execute_tool transfer_money');
    expect(resumedTool.links).toEqual([expect.objectContaining(link)]);
    expect(resumedTool.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'call_1',
      'adkit.resumed': true,
      'adkit.tool.confirmed': true,
      'adkit.outcome': 'completed',
    });
    expect(resumedTool.parentSpanContext?.spanId).toBe(resumedRun.spanContext().spanId);
    expect(second.tracing.spans().map((span) => span.name).sort()).toEqual([
      'chat scripted-model',
      'execute_tool transfer_money',
      'invoke_agent teller',
    ]);
  });

  it('HC-2: a rejected confirmation resumes into an error span, still linked', async () => {
    const sessions = new InMemorySessionService();
    const model = new ScriptedModel([functionCallResponse([{ name: 'transfer_money', args: { amount: 50 }, id: 'call_1' }]), textResponse('Cancelled.')]);
    const paused = await newProcess(sessions, model, [transfer()]).send(createUserContent('send 50'));
    const second = newProcess(sessions, model, [transfer()]);
    await second.send(confirmationReply(paused, false));
    const span = second.tracing.span('execute_tool transfer_money');
    expect(span.links).toHaveLength(1);
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'error tool "transfer_money" call is rejected' });
    expect(span.attributes).toMatchObject({ 'adkit.tool.confirmed': false, 'adkit.outcome': 'error' });
  });

  it('FT-6, FL-8: a long-running call pauses; the client answer starts a run linked to it', async () => {
    const sessions = new InMemorySessionService();
    const approve = functionTool({
      name: 'request_approval',
      description: 'Asks a manager.',
      parameters: Type.Object({ item: Type.String() }),
      isLongRunning: true,
      execute: ({ item }) => ({ status: 'pending', ticket: `T-${item}` }),
    });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'request_approval', args: { item: 'laptop' }, id: 'lr_1' }]),
      textResponse('Waiting for the manager.'), // the model sees the pending status (FL-6)
      textResponse('Approved!'),
    ]);
    const first = newProcess(sessions, model, [approve]);
    await first.send(createUserContent('buy a laptop'));
    const pausedTool = first.tracing.span('execute_tool request_approval');
    expect(pausedTool.attributes).toMatchObject({ 'adkit.outcome': 'paused', 'adkit.pause.reason': 'long_running' });
    expect(first.tracing.span('invoke_agent teller').attributes).toMatchObject({
      'adkit.outcome': 'paused',
      'adkit.pause.reason': 'long_running',
    });

    const second = newProcess(sessions, model, [approve]);
    await second.send({ role: 'user', parts: [{ functionResponse: { id: 'lr_1', name: 'request_approval', response: { status: 'approved' } } }] });
    const run = second.tracing.span('invoke_agent teller');
    expect(run.links).toEqual([expect.objectContaining({ context: expect.objectContaining({ spanId: pausedTool.spanContext().spanId }) })]);
    expect(run.attributes).toMatchObject({ 'adkit.resumed': true, 'adkit.outcome': 'completed' });
  });

  it('FT-6: a resumable tool resumes its paused call in a span linked to the paused one', async () => {
    const sessions = new InMemorySessionService();
    const ticketTool = {
      name: 'open_ticket',
      description: 'Opens a ticket; answers when support replies.',
      isLongRunning: true,
      declaration: () => ({ name: 'open_ticket', description: 'Opens a ticket.' }),
      // No answer yet: the call pauses until the client answers it (FL-15).
      run: async () => undefined,
      resume: async (_ctx: unknown, response: Record<string, unknown>) => ({ status: 'closed', reply: response.reply }),
    };
    const model = new ScriptedModel([functionCallResponse([{ name: 'open_ticket', id: 't_1' }]), textResponse('Support replied.')]);
    const first = newProcess(sessions, model, [ticketTool]);
    await first.send(createUserContent('my laptop broke'));
    const paused = first.tracing.span('execute_tool open_ticket');
    expect(paused.attributes).toMatchObject({ 'adkit.outcome': 'paused', 'adkit.pause.reason': 'long_running' });

    const second = newProcess(sessions, model, [ticketTool]);
    await second.send({ role: 'user', parts: [{ functionResponse: { id: 't_1', name: 'open_ticket', response: { reply: 'fixed' } } }] });
    const resumed = second.tracing.span('execute_tool open_ticket');
    expect(resumed.links).toEqual([expect.objectContaining({ context: expect.objectContaining({ spanId: paused.spanContext().spanId }) })]);
    expect(resumed.attributes).toMatchObject({ 'gen_ai.tool.call.id': 't_1', 'adkit.resumed': true, 'adkit.outcome': 'completed' });
    expect(second.tracing.span('invoke_agent teller').links).toHaveLength(1);
  });

  it('a saved link that is not a traceparent is ignored; a call id "__proto__" is just a key', async () => {
    const sessions = new InMemorySessionService();
    const valid = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const saved = JSON.parse(`{"lr_1":"not-a-traceparent","__proto__":"${valid}","lr_2":{"nested":true}}`) as Record<string, unknown>;
    await sessions.createSession({ ...KEY, state: { [PAUSED_SPANS_STATE_KEY]: saved } });
    const model = new ScriptedModel([textResponse('ok')]);
    const { tracing, send } = newProcess(sessions, model, []);
    const answer = (id: string) => ({ functionResponse: { id, name: 'request_approval', response: {} } });
    await send({ role: 'user', parts: [answer('lr_1'), answer('__proto__'), answer('lr_2'), answer('unknown')] });
    expect(tracing.span('invoke_agent teller').links).toEqual([
      expect.objectContaining({ context: expect.objectContaining({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' }) }),
    ]);
  });
});
