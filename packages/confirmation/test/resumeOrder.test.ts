// HC-8 step 4: the resume processor queues the approved original calls in the order they were
// asked (the model's order, which is the order of the requests), not in the order the client's
// replies arrive; they start in that order and their responses merge in that order (FL-14).
// Like ADK's processor tests, one paused step with six calls and one reply event answering all of
// them out of order.
import { getFunctionCalls, getFunctionResponses, type Content, type Event } from '@adkit/flow';
import { functionCallResponse, textResponse } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { REQUEST_CONFIRMATION, createConfirmationReply, withConfirmation } from '../src/index.js';
import { Harness, recordingTool } from './support.js';

const asked = ['c3', 'c1', 'c5', 'c2', 'c6', 'c4'];

function setup() {
  const started: string[] = [];
  const tool = recordingTool('step', (args) => {
    started.push(String(args.n));
    return { done: args.n };
  });
  const h = new Harness(
    [functionCallResponse(asked.map((id) => ({ name: 'step', args: { n: id }, id }))), textResponse('All six done.')],
    { toolsets: [withConfirmation({ name: 'ops', tools: async () => [tool] }, { require: true })], maxToolConcurrency: 1 },
  );
  return { h, started };
}

/** One user message answering every request, in the given order of original call ids. */
function replyInOrder(paused: Event[], order: string[], confirmed: (id: string) => boolean = () => true): Content {
  const requests = paused.flatMap(getFunctionCalls).filter((call) => call.name === REQUEST_CONFIRMATION);
  const byOriginal = new Map(requests.map((call) => [(call.args!.originalFunctionCall as { id: string }).id, call]));
  return {
    role: 'user',
    parts: order.flatMap((id) => createConfirmationReply(byOriginal.get(id)!, { confirmed: confirmed(id) }).parts!),
  };
}

describe('HC-8 step 4: resumed confirmations run and merge in request order', () => {
  it('six calls asked as c3,c1,c5,c2,c6,c4 and approved in reverse in one message run and merge as c3,c1,c5,c2,c6,c4', async () => {
    const { h, started } = setup();
    const paused = await h.send('do all six');
    const requestEvent = paused.find((e) => getFunctionCalls(e).some((c) => c.name === REQUEST_CONFIRMATION))!;
    expect(getFunctionCalls(requestEvent).map((c) => (c.args!.originalFunctionCall as { id: string }).id)).toEqual(asked);

    const resumed = await h.send(replyInOrder(paused, [...asked].reverse()));
    expect(resumed[0]!.actions.startedToolCalls).toEqual(asked);
    expect(started).toEqual(asked);
    const merged = resumed.find((e) => getFunctionResponses(e).some((r) => r.name === 'step'))!;
    expect(getFunctionResponses(merged).map((r) => [r.id, r.response])).toEqual(asked.map((id) => [id, { done: id }]));
    // The model's next request carries the responses in the same order.
    const last = h.model.requests.at(-1)!.contents.flatMap((c) => c.parts ?? []).filter((p) => p.functionResponse?.name === 'step');
    expect(last.slice(-6).map((p) => p.functionResponse!.id)).toEqual(asked);
  });

  it('any reply order gives the request order, rejections included', async () => {
    const { h, started } = setup();
    const paused = await h.send('do all six');
    const resumed = await h.send(replyInOrder(paused, ['c2', 'c4', 'c1', 'c6', 'c3', 'c5'], (id) => id !== 'c5' && id !== 'c1'));
    expect(started).toEqual(['c3', 'c2', 'c6', 'c4']);
    const merged = resumed.find((e) => getFunctionResponses(e).some((r) => r.name === 'step'))!;
    expect(getFunctionResponses(merged).map((r) => r.id)).toEqual(asked);
    expect(getFunctionResponses(merged).find((r) => r.id === 'c5')!.response).toEqual({ error: 'error tool "step" call is rejected' });
  });

  it('requests from two pauses answered in one message run in the order they were asked', async () => {
    const started: string[] = [];
    const tool = recordingTool('step', (args) => {
      started.push(String(args.n));
      return { done: args.n };
    });
    const h = new Harness(
      [
        functionCallResponse([{ name: 'step', args: { n: 'first' }, id: 'a1' }]),
        functionCallResponse([{ name: 'step', args: { n: 'second' }, id: 'b1' }]),
        textResponse('Both done.'),
      ],
      { toolsets: [withConfirmation({ name: 'ops', tools: async () => [tool] }, { require: true })] },
    );
    const pausedA = await h.send('do the first');
    const pausedB = await h.send('and the second');
    const resumed = await h.send(replyInOrder([...pausedA, ...pausedB], ['b1', 'a1']));
    expect(started).toEqual(['first', 'second']);
    const merged = resumed.find((e) => getFunctionResponses(e).some((r) => r.name === 'step'))!;
    expect(getFunctionResponses(merged).map((r) => r.id)).toEqual(['a1', 'b1']);
  });
});
