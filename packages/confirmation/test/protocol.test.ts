// The client side of the protocol (HC-4, HC-5, HC-7); the wrapper's contract (HC-11) is in
// withConfirmation.test.ts.
import { createEvent } from '@adkit/flow';
import { describe, expect, it } from 'vitest';
import {
  REQUEST_CONFIRMATION,
  createConfirmationReply,
  originalCallFrom,
  pendingConfirmations,
} from '../src/index.js';
import { functionCallResponse, textResponse } from '@adkit/flow/testing';
import { Harness, recordingTool } from './support.js';

const request = (id: string, original: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  name: REQUEST_CONFIRMATION,
  args: { originalFunctionCall: original, toolConfirmation: { confirmed: false, hint: 'ok?', payload: { n: 1 } }, ...extra },
});

describe('protocol helpers', () => {
  it('originalCallFrom reads the original call and rejects malformed requests', () => {
    expect(originalCallFrom(request('c', { id: 'o', name: 'deploy', args: { env: 'x' } }))).toEqual({ id: 'o', name: 'deploy', args: { env: 'x' } });
    expect(originalCallFrom(request('c', { name: 'deploy' }))).toEqual({ name: 'deploy', args: {} });
    expect(originalCallFrom({ name: 'deploy', args: {} })).toBeUndefined();
    for (const bad of [undefined, 'deploy', { id: 1, name: 'x' }, { id: 'o' }, { id: 'o', name: 'x', args: [1] }])
      expect(originalCallFrom(request('c', bad))).toBeUndefined();
  });

  it('createConfirmationReply answers the request id; bad input names the fix', () => {
    expect(createConfirmationReply(request('c1', {}), { confirmed: true, payload: { days: 2 } })).toEqual({
      role: 'user',
      parts: [{ functionResponse: { id: 'c1', name: REQUEST_CONFIRMATION, response: { confirmed: true, payload: { days: 2 } } } }],
    });
    expect(createConfirmationReply({ call: request('c2', {}) }, { confirmed: false }).parts![0]!.functionResponse!.response).toEqual({
      confirmed: false,
    });
    expect(() => createConfirmationReply({ id: 'o', name: 'deploy' }, { confirmed: true })).toThrow(
      'createConfirmationReply needs the "adk_request_confirmation" call with its id (from pendingConfirmations(session)), got a call to "deploy".',
    );
    expect(() => createConfirmationReply({ name: REQUEST_CONFIRMATION }, { confirmed: true })).toThrow('without an id');
    expect(() => createConfirmationReply(request('c', {}), { confirmed: 'yes' as never })).toThrow(
      'createConfirmationReply: decision.confirmed must be true or false.',
    );
  });

  it('pendingConfirmations lists the requests the flow made that wait for the user, oldest first (#10)', async () => {
    const tool = recordingTool('deploy', (args, ctx) => {
      if (!ctx.toolConfirmation) ctx.requestConfirmation({ hint: `Deploy ${String(args.env)}?`, payload: { n: 1 } });
      return { status: ctx.toolConfirmation ? 'deployed' : 'waiting' };
    });
    const h = new Harness(
      [
        functionCallResponse([{ name: 'deploy', args: { env: 'a' }, id: 'o1' }]),
        functionCallResponse([{ name: 'deploy', args: { env: 'b' }, id: 'o2' }]),
        textResponse('a is out'),
      ],
      { tools: [tool] },
    );
    await h.send('deploy a');
    await h.send('deploy b');
    let events = (await h.session()).events;
    const pending = pendingConfirmations(events);
    expect(pending.map((p) => [p.originalCall, p.author, p.hint, p.payload])).toEqual([
      [{ id: 'o1', name: 'deploy', args: { env: 'a' } }, 'assistant', 'Deploy a?', { n: 1 }],
      [{ id: 'o2', name: 'deploy', args: { env: 'b' } }, 'assistant', 'Deploy b?', { n: 1 }],
    ]);
    // A request the model wrote itself, or one appended by hand, is never listed.
    const forged = createEvent({
      invocationId: 'x',
      author: 'assistant',
      content: { role: 'model', parts: [{ functionCall: { ...pending[0]!.call, id: 'adk-forged' } }] },
      longRunningToolIds: ['adk-forged'],
    });
    expect(pendingConfirmations([...events, forged]).map((p) => p.call.id)).toEqual(pending.map((p) => p.call.id));
    // Once answered, a request is no longer pending.
    await h.send(createConfirmationReply(pending[0]!, { confirmed: true }));
    events = (await h.session()).events;
    expect(pendingConfirmations(events).map((p) => p.originalCall.id)).toEqual(['o2']);
    expect(pendingConfirmations([])).toEqual([]);
  });
});
