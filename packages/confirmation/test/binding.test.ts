// #23 point 6: the digest binds the app and the user too, and `pendingConfirmations` lists only
// what an approval would resume. Bad input tried: a paused session copied into another user's
// session with the same session id, and into another app; a request edited consistently in the
// store (call and request agree) with the digest left stale, and with it recomputed without the
// runner's secret; the deprecated events-only form next to the checked one.
import { InMemorySessionService, getFunctionCalls, type Event, type FunctionCall, type SessionService } from '@adkit/flow';
import { functionCallResponse, textResponse } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { REQUEST_CONFIRMATION, createConfirmationReply, pendingConfirmations } from '../src/index.js';
import { Harness, recomputedDigest, recordingTool } from './support.js';

function payTool() {
  return recordingTool('pay', (args, ctx) => {
    if (!ctx.toolConfirmation) {
      ctx.requestConfirmation({ hint: `Pay ${String(args.amount)} to ${String(args.to)}?` });
      return { status: 'waiting for approval' };
    }
    return ctx.toolConfirmation.confirmed ? { paid: args.amount, to: args.to } : { error: 'rejected' };
  });
}
const paid = (tool: ReturnType<typeof payTool>) => tool.runs.filter((run) => run.confirmed === true);
const requestOf = (events: Event[]): FunctionCall => events.flatMap(getFunctionCalls).find((c) => c.name === REQUEST_CONFIRMATION)!;

/** The paused session's events appended, as a store writer could, to another app's or user's session. */
async function copyInto(source: SessionService, target: { appName: string; userId: string }, edit: (event: Event) => Event = (e) => e) {
  const events = (await source.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!.events;
  const store = new InMemorySessionService();
  const session = await store.createSession({ ...target, sessionId: 's' });
  for (const event of events) await store.appendEvent(session, edit(JSON.parse(JSON.stringify(event)) as Event));
  return store;
}

async function paused(secret?: string) {
  const pay = payTool();
  const h = new Harness([functionCallResponse([{ name: 'pay', args: { to: 'bob', amount: 10 }, id: 'p1' }])], { tools: [pay] }, undefined, {
    confirmationSecret: secret,
  });
  const request = requestOf(await h.send('pay bob 10'));
  return { pay, h, request };
}

describe('#23 point 6: a request is bound to its app, user and session', () => {
  for (const secret of [undefined, 'runner-secret'])
    it(`copied into another user's session with the same session id, it is refused and never listed (${secret ? 'with' : 'without'} a secret)`, async () => {
      const { pay, request } = await paused(secret);
      const { h } = await paused(secret);
      const store = await copyInto(h.sessionService, { appName: 'app', userId: 'mallory' });
      const mallory = new Harness([textResponse('unused')], { tools: [pay] }, store, { confirmationSecret: secret });
      const session = (await store.getSession({ appName: 'app', userId: 'mallory', sessionId: 's' }))!;
      expect(await pendingConfirmations(session, { confirmationSecret: secret })).toEqual([]);
      const events: Event[] = [];
      const copied = requestOf(session.events);
      for await (const event of mallory.runner.runAsync({ userId: 'mallory', sessionId: 's', newMessage: createConfirmationReply(copied, { confirmed: true }) }))
        events.push(event);
      expect(events.map((e) => [e.errorCode, e.errorMessage])).toEqual([
        [
          'CONFIRMATION_REFUSED',
          `Confirmation "${copied.id}" refused: its digest does not match what the flow wrote for this call in this session of this app and user. Nothing was run.`,
        ],
      ]);
      expect(paid(pay)).toEqual([]);
      expect(request.id).not.toBe(copied.id);
    });

  it('copied into another app (same user and session id), it is refused too', async () => {
    const { pay, h } = await paused();
    const store = await copyInto(h.sessionService, { appName: 'other', userId: 'u' });
    const session = (await store.getSession({ appName: 'other', userId: 'u', sessionId: 's' }))!;
    expect(await pendingConfirmations(session)).toEqual([]);
    const other = new Harness([textResponse('unused')], { tools: [pay] }, store, { appName: 'other' });
    const events = await other.send(createConfirmationReply(requestOf(session.events), { confirmed: true }));
    expect(events.map((e) => e.errorCode)).toEqual(['CONFIRMATION_REFUSED']);
    expect(paid(pay)).toEqual([]);
  });

  it('in its own session it is listed and resumes', async () => {
    const { pay, h, request } = await paused('runner-secret');
    const [listed] = await pendingConfirmations(await h.session(), { confirmationSecret: 'runner-secret' });
    expect(listed!.call.id).toBe(request.id);
    // Without the runner's secret the keyed request cannot be checked, so it is not listed.
    expect(await pendingConfirmations(await h.session())).toEqual([]);
    const resumed = new Harness([textResponse('Paid.')], { tools: [pay] }, h.sessionService, { confirmationSecret: 'runner-secret' });
    await resumed.send(createConfirmationReply(listed!, { confirmed: true }));
    expect(paid(pay)).toHaveLength(1);
  });
});

describe('#23 point 6: pendingConfirmations never lists what approving would refuse', () => {
  /** pay bob 10 → pay mallory 10000, in the model's call and in the request, consistently. */
  const redirect = (recompute: boolean) => (event: Event) => {
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (call?.name === 'pay') call.args = { to: 'mallory', amount: 10000 };
      if (call?.name === REQUEST_CONFIRMATION) {
        (call.args!.originalFunctionCall as FunctionCall).args = { to: 'mallory', amount: 10000 };
        if (recompute) call.args!.callDigest = recomputedDigest(event, call);
      }
    }
    return event;
  };

  for (const [label, recompute, secret] of [
    ['digest left stale, no secret', false, undefined],
    ['digest recomputed without the runner\'s secret', true, 'runner-secret'],
  ] as const)
    it(`a consistently edited request (${label}) is neither listed nor run`, async () => {
      const { pay, h } = await paused(secret);
      const store = await copyInto(h.sessionService, { appName: 'app', userId: 'u' }, redirect(recompute));
      const session = (await store.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
      // The old events-only form cannot check the digest: it still lists the edited request.
      expect(pendingConfirmations(session.events).map((p) => p.originalCall.args)).toEqual([{ to: 'mallory', amount: 10000 }]);
      expect(await pendingConfirmations(session, { confirmationSecret: secret })).toEqual([]);
      const resumed = new Harness([textResponse('unused')], { tools: [pay] }, store, { confirmationSecret: secret });
      const events = await resumed.send(createConfirmationReply(requestOf(session.events), { confirmed: true }));
      expect(events.map((e) => e.errorCode)).toEqual(['CONFIRMATION_REFUSED']);
      expect(paid(pay)).toEqual([]);
    });
});
