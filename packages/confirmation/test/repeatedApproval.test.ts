// #23 point 3: the same approval delivered twice while the approved tool still runs keeps the real
// result. Two runners in one process (on one in-memory store; on one SQLite file through two
// services): the tool runs once, its result is saved and reaches the model, the second delivery
// is refused (`CALL_IN_PROGRESS`, nothing of it saved) and nothing says "interrupted"; delivered
// again after the call answered, it is refused as already used. The at-most-once marker still
// works for a run that ended without an answer (the consumer stopped reading): the next delivery
// reads the call as interrupted. Two processes: test/repeatedApprovalProcesses.test.ts.
import { InMemorySessionService, LlmAgent, Runner, createEvent, createUserContent, getFunctionResponses, type Content, type Event, type Model, type SessionService } from '@adkit/flow';
import { functionCallResponse, textResponse } from '@adkit/flow/testing';
import { SqliteSessionService } from '@adkit/session-sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConfirmationReply, pendingConfirmations } from '../src/index.js';
import { recordingTool } from './support.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A model that is a pure function of the request: any runner can take any turn. */
const model: Model = {
  model: 'stateless',
  async *generateContent(request) {
    const parts = request.contents.flatMap((content) => content.parts ?? []);
    const answer = parts.findLast((part) => part.functionResponse?.name === 'pay')?.functionResponse?.response;
    yield answer && !String(answer.error ?? '').includes('requires confirmation')
      ? textResponse(`model saw: ${JSON.stringify(answer)}`)
      : functionCallResponse([{ name: 'pay', args: { to: 'bob', amount: 10 }, id: 'p1' }]);
  },
};

/** `pay` asks first; approved, it pays once and then waits until the test lets it finish. */
function blockingPay() {
  let entered!: () => void;
  let release!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const finish = new Promise<void>((resolve) => (release = resolve));
  const tool = recordingTool('pay', async (args, ctx) => {
    if (!ctx.toolConfirmation) {
      ctx.requestConfirmation({ hint: 'Pay 10 to bob?' });
      return { error: 'pay requires confirmation' };
    }
    entered();
    ctx.reportProgress({ message: 'paying' });
    await finish;
    return { paid: args.amount };
  });
  return { tool, inside, release };
}

async function collect(runner: Runner, newMessage: Content): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage })) if (!event.partial) events.push(event);
  return events;
}

const runnerOn = (sessionService: SessionService, pay: ReturnType<typeof blockingPay>['tool']) =>
  new Runner({ appName: 'app', agent: new LlmAgent({ name: 'teller', model, tools: [pay] }), sessionService, autoCreateSession: true });

/** Two services on one store: the same in-memory service twice, or two SQLite services on one file. */
function stores(kind: 'in-memory' | 'sqlite'): [SessionService, SessionService] {
  if (kind === 'in-memory') {
    const service = new InMemorySessionService();
    return [service, service];
  }
  const dir = mkdtempSync(join(tmpdir(), 'adkit-repeated-'));
  const a = new SqliteSessionService({ path: join(dir, 'sessions.db') });
  const b = new SqliteSessionService({ path: join(dir, 'sessions.db') });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }), () => a.close(), () => b.close());
  return [a, b];
}

describe('#23 point 3: the same approval delivered twice while the tool runs keeps the real result', () => {
  for (const kind of ['in-memory', 'sqlite'] as const)
    it(`two runners in one process (${kind}): the tool runs once, its result is saved and reaches the model, the second delivery is refused`, async () => {
      const [storeA, storeB] = stores(kind);
      const pay = blockingPay();
      const runnerA = runnerOn(storeA, pay.tool);
      const runnerB = runnerOn(storeB, pay.tool);
      await collect(runnerA, createUserContent('pay bob 10'));
      const [request] = await pendingConfirmations((await storeA.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!);
      const approval = createConfirmationReply(request!, { confirmed: true });

      const first = collect(runnerA, approval);
      await pay.inside;
      const second = await collect(runnerB, approval);
      expect(second.map((e) => [e.author, e.errorCode, e.errorMessage])).toEqual([
        [
          'teller',
          'CALL_IN_PROGRESS',
          'Reply refused: call "p1" of tool "pay" is still running on this machine. This answer was already delivered; the result is saved when the call finishes. Nothing of this message was saved or run.',
        ],
      ]);

      pay.release();
      const firstEvents = await first;
      expect(firstEvents.flatMap(getFunctionResponses)).toEqual([{ id: 'p1', name: 'pay', response: { paid: 10 } }]);
      expect(firstEvents.at(-1)!.content!.parts![0]!.text).toBe('model saw: {"paid":10}');
      expect(pay.tool.runs.filter((run) => run.confirmed)).toHaveLength(1);

      const stored = (await storeB.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!.events;
      expect(JSON.stringify(stored)).not.toContain('interrupted');
      expect(stored.filter((e) => e.author === 'user')).toHaveLength(2); // "pay bob 10" and one approval
      expect(stored.flatMap(getFunctionResponses).filter((r) => r.name === 'pay').at(-1)!.response).toEqual({ paid: 10 });
      expect(stored.some((e) => e.errorCode)).toBe(false);

      // Delivered once more after the call answered: refused as used, and again nothing is saved.
      const third = await collect(runnerB, approval);
      expect(third.map((e) => e.errorCode)).toEqual(['CONFIRMATION_ALREADY_USED']);
      expect((await storeB.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!.events).toHaveLength(stored.length);
      expect(pay.tool.runs.filter((run) => run.confirmed)).toHaveLength(1);
    });

  it('a run that ended without the answer (the consumer stopped reading) frees the call: the next delivery reads it as interrupted, never as running', async () => {
    const service = new InMemorySessionService();
    const pay = blockingPay();
    const runner = runnerOn(service, pay.tool);
    await collect(runner, createUserContent('pay bob 10'));
    const [request] = await pendingConfirmations((await service.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!);
    const approval = createConfirmationReply(request!, { confirmed: true });

    const run = runner.runAsync({ userId: 'u', sessionId: 's', newMessage: approval });
    for await (const event of run) if (event.toolProgress) break; // leaves while the tool runs
    pay.release();

    const again = await collect(runner, approval);
    const answer = again.flatMap(getFunctionResponses).find((r) => r.id === 'p1')!.response!;
    expect(answer.error).toContain('Tool "pay" call "p1" was interrupted');
    expect(pay.tool.runs.filter((r) => r.confirmed)).toHaveLength(1);
  });

  it('an answer to a paused resumable call, delivered twice while it resumes, is refused the same way', async () => {
    const service = new InMemorySessionService();
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const finish = new Promise<void>((resolve) => (release = resolve));
    const resumes: unknown[] = [];
    const ticket = {
      ...recordingTool('ticket', () => undefined),
      async resume(_ctx: unknown, response: Record<string, unknown>) {
        resumes.push(response);
        entered();
        await finish;
        return { closed: response.ticket };
      },
    };
    const ticketModel: Model = {
      model: 'stateless',
      async *generateContent(request) {
        const answer = request.contents.flatMap((c) => c.parts ?? []).findLast((p) => p.functionResponse?.name === 'ticket')?.functionResponse?.response;
        yield answer ? textResponse(`closed ${JSON.stringify(answer)}`) : functionCallResponse([{ name: 'ticket', args: {}, id: 't1' }]);
      },
    };
    const make = () => new Runner({ appName: 'app', agent: new LlmAgent({ name: 'desk', model: ticketModel, tools: [ticket] }), sessionService: service, autoCreateSession: true });
    const [a, b] = [make(), make()];
    await collect(a, createUserContent('open a ticket'));
    const answer: Content = { role: 'user', parts: [{ functionResponse: { id: 't1', name: 'ticket', response: { ticket: 7 } } }] };
    const first = collect(a, answer);
    await inside;
    expect((await collect(b, answer)).map((e) => e.errorCode)).toEqual(['CALL_IN_PROGRESS']);
    release();
    expect((await first).at(-1)!.content!.parts![0]!.text).toBe('closed {"closed":7}');
    expect(resumes).toHaveLength(1);
  });

  it('a call started on another machine is reported as possibly still running there until its time limit has passed; one started here with no lease reads as interrupted', async () => {
    for (const [startedOn, runsUntil, expected] of [
      ['far-away-host', undefined, 'CALL_IN_PROGRESS'], // no time limit: it may run there for ever
      ['far-away-host', Date.now() + 3_600_000, 'CALL_IN_PROGRESS'],
      ['far-away-host', Date.now() - 1, 'interrupted'], // past its calls' time limit
      [hostname(), undefined, 'interrupted'],
    ] as const) {
      const service = new InMemorySessionService();
      const pay = blockingPay();
      const runner = runnerOn(service, pay.tool);
      await collect(runner, createUserContent('pay bob 10'));
      const session = (await service.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
      const [request] = await pendingConfirmations(session);
      const approval = createConfirmationReply(request!, { confirmed: true });
      // As a process on `startedOn` leaves it: the approval saved, the marker saved, then nothing.
      const invocationId = 'e-elsewhere';
      await service.appendEvent(session, createEvent({ invocationId, author: 'user', content: approval }));
      await service.appendEvent(
        session,
        createEvent({
          invocationId,
          author: 'teller',
          actions: { startedToolCalls: ['p1'] },
          customMetadata: { adkitStartedOn: startedOn, ...(runsUntil === undefined ? {} : { adkitRunsUntil: runsUntil }) },
        }),
      );
      const events = await collect(runner, approval);
      if (expected === 'CALL_IN_PROGRESS')
        expect(events.map((e) => [e.errorCode, e.errorMessage])).toEqual([
          [
            'CALL_IN_PROGRESS',
            'Reply refused: call "p1" of tool "pay" is still running on machine "far-away-host", where it was started (it may still run there). This answer was already delivered; the result is saved when the call finishes. Nothing of this message was saved or run.',
          ],
        ]);
      else expect(events.flatMap(getFunctionResponses).find((r) => r.id === 'p1')!.response!.error).toContain('was interrupted');
      expect(pay.tool.runs.filter((r) => r.confirmed)).toEqual([]);
    }
  });

  it('the started marker records the machine, and when the calls\' time limit (with a grace for saving) has passed', async () => {
    const service = new InMemorySessionService();
    const pay = blockingPay();
    const runner = new Runner({
      appName: 'app',
      agent: new LlmAgent({ name: 'teller', model, tools: [pay.tool], toolTimeoutMs: 5_000 }),
      sessionService: service,
      autoCreateSession: true,
    });
    await collect(runner, createUserContent('pay bob 10'));
    const [request] = await pendingConfirmations((await service.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!);
    const before = Date.now();
    const run = collect(runner, createConfirmationReply(request!, { confirmed: true }));
    await pay.inside;
    pay.release();
    const marker = (await run).find((e) => e.actions.startedToolCalls)!;
    expect(marker.customMetadata!.adkitStartedOn).toBe(hostname());
    const until = marker.customMetadata!.adkitRunsUntil as number;
    expect(until).toBeGreaterThanOrEqual(before + 5_000 + 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 5_000 + 60_000);
  });

  it('a repeated message answering many running calls names three and counts the rest, each name bounded', async () => {
    const service = new InMemorySessionService();
    const pay = blockingPay();
    const ids = ['x'.repeat(5_000), 'c1', 'c2', 'c3', 'c4'];
    const many: Model = {
      model: 'many',
      async *generateContent() {
        yield functionCallResponse(ids.map((id) => ({ name: 'pay', args: { to: 'bob', amount: 1 }, id })));
      },
    };
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'teller', model: many, tools: [pay.tool] }), sessionService: service, autoCreateSession: true });
    await collect(runner, createUserContent('pay five times'));
    const session = (await service.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
    const requests = await pendingConfirmations(session);
    const approval: Content = { role: 'user', parts: requests.flatMap((r) => createConfirmationReply(r, { confirmed: true }).parts!) };
    await service.appendEvent(session, createEvent({ invocationId: 'e-far', author: 'user', content: approval }));
    await service.appendEvent(
      session,
      createEvent({ invocationId: 'e-far', author: 'teller', actions: { startedToolCalls: ids }, customMetadata: { adkitStartedOn: 'far-away-host' } }),
    );
    const [refusal, ...rest] = await collect(runner, approval);
    expect(rest).toEqual([]);
    expect(refusal!.errorCode).toBe('CALL_IN_PROGRESS');
    expect(refusal!.errorMessage).toBe(
      'Reply refused: ' +
        [`${'x'.repeat(100)}…`, 'c1', 'c2'].map((id) => `call "${id}" of tool "pay" is still running on machine "far-away-host", where it was started (it may still run there)`).join('; ') +
        '; and 2 more calls. This answer was already delivered; the result is saved when the call finishes. Nothing of this message was saved or run.',
    );
  });
});
