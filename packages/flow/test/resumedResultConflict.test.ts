// Issue #23 follow-up: a new, non-duplicate user message saved (by another runner) while a resumed
// call runs must not lose that call's result to SESSION_CONFLICT. The result is appended to the
// reloaded session and the resumed run ends there; the new message's run sees the call pending,
// and a run whose only rival append was such a result saves after it. Any other stale write is
// still a conflict. Coordination by overlap (promises the tool and the model wait on), no sleeps.
import { describe, expect, it } from 'vitest';
import {
  InMemorySessionService,
  LlmAgent,
  REQUEST_CONFIRMATION_FUNCTION,
  Runner,
  createUserContent,
  getFunctionCalls,
  getFunctionResponses,
  type Content,
  type Event,
  type SessionService,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse, type ScriptStep } from '../src/testing/index.js';
import { rawTool } from './support.js';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

async function collect(gen: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of gen) events.push(event);
  return events;
}

/** A payment that asks for approval, then runs until the test lets it finish. */
function world(service: SessionService, stepsA: ScriptStep[], stepsB: ScriptStep[]) {
  const started = deferred();
  const finish = deferred();
  let runs = 0;
  const pay = rawTool('pay', async (_args, ctx) => {
    if (!ctx.toolConfirmation) {
      ctx.requestConfirmation({ hint: 'Pay 20 EUR?' });
      return { error: 'This tool call requires confirmation, please approve or reject.' };
    }
    runs++;
    started.resolve();
    await finish.promise;
    return { paid: true, receipt: 'R-7' };
  });
  const modelA = new ScriptedModel(stepsA);
  const modelB = new ScriptedModel(stepsB);
  // Two runners (two servers) on one store, with the same agent definition.
  const runnerA = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'shop', model: modelA, tools: [pay] }), sessionService: service, confirmationSecret: 'k' });
  const runnerB = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'shop', model: modelB, tools: [pay] }), sessionService: service, confirmationSecret: 'k' });
  const send = (runner: Runner, message: Content) => collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: message }));
  return { started, finish, runs: () => runs, modelA, modelB, runnerA, runnerB, send };
}

const stored = async (service: SessionService) => (await service.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!.events;
const payAnswers = (events: readonly Event[]) => events.flatMap(getFunctionResponses).filter((r) => r.name === 'pay').map((r) => r.response);
const contentsText = (model: ScriptedModel, i: number) => JSON.stringify(model.requests[i]!.contents);

/** The shared scenario, run on any store: an approval resumes `pay`; a new message arrives while it runs. */
async function resultOutlivesNewMessage(service: SessionService, order: 'new message first' | 'result first') {
  const resultSaved = deferred();
  const w = world(
    service,
    [functionCallResponse([{ name: 'pay', args: { amount: 20 }, id: 'call-pay' }]), textResponse('unused')],
    [
      async () => {
        // The new message's model answers only after the resumed result was saved (its save then meets it).
        if (order === 'result first') {
          w.finish.resolve();
          await resultSaved.promise;
        }
        return textResponse('It is sunny.');
      },
      textResponse('Paid, receipt R-7.'),
    ],
  );
  await service.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const first = await w.send(w.runnerA, createUserContent('pay the bill'));
  const request = first.flatMap(getFunctionCalls).find((call) => call.name === REQUEST_CONFIRMATION_FUNCTION)!;

  // Runner A resumes the approved call; it runs until told to finish.
  const resumed = (async () => {
    const events: Event[] = [];
    for await (const event of w.runnerA.runAsync({
      userId: 'u',
      sessionId: 's',
      newMessage: { role: 'user', parts: [{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION_FUNCTION, response: { confirmed: true } } }] },
    })) {
      events.push(event);
      if (payAnswers([event]).length > 0) resultSaved.resolve();
    }
    return events;
  })();
  await w.started.promise;

  // Runner B takes a new message while the call runs.
  const other = w.send(w.runnerB, createUserContent('what is the weather?'));
  if (order === 'new message first') {
    await other;
    w.finish.resolve();
  }
  const [resumedEvents, otherEvents] = await Promise.all([resumed, other]);
  return { w, resumedEvents, otherEvents };
}

describe('a resumed call\'s result is never lost to a new message (#23)', () => {
  it.each(['new message first', 'result first'] as const)('in memory, %s: the result is saved, the new message\'s run saw the call open, nothing failed', async (order) => {
    const service = new InMemorySessionService();
    const { w, resumedEvents, otherEvents } = await resultOutlivesNewMessage(service, order);
    expect(payAnswers(resumedEvents)).toEqual([{ paid: true, receipt: 'R-7' }]);
    expect(otherEvents.at(-1)!.content!.parts![0]!.text).toBe('It is sunny.');
    expect(w.runs()).toBe(1);
    // The resumed run ended at its result: its model was not called on a history that moved on.
    expect(w.modelA.requests).toHaveLength(1);
    expect(resumedEvents.some((event) => event.errorCode)).toBe(false);
    // The new message's model saw the call still open (as it was asked), not interrupted, no result.
    expect(contentsText(w.modelB, 0)).toContain('"id":"call-pay"');
    expect(contentsText(w.modelB, 0)).not.toContain('R-7');
    expect(contentsText(w.modelB, 0)).not.toContain('interrupted');
    const events = await stored(service);
    expect(payAnswers(events).filter((r) => r !== undefined && !('error' in r))).toEqual([{ paid: true, receipt: 'R-7' }]);
    // Each event once.
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    // The next turn's model gets the result as a late answer, where it arrived (DESIGN "late answers come last").
    const next = await w.send(w.runnerB, createUserContent('and the bill?'));
    expect(next.at(-1)!.content!.parts![0]!.text).toBe('Paid, receipt R-7.');
    const late = w.modelB.requests[1]!.contents.flatMap((content) => (content.parts ?? []).flatMap((part) => (part.text?.startsWith('Update from function pay') ? [part.text] : [])));
    expect(late).toHaveLength(1);
    expect(late[0]).toContain('"receipt":"R-7"');
  });

  it('any other stale write is still SESSION_CONFLICT, and nothing of it is stored', async () => {
    const service = new InMemorySessionService();
    const gate = deferred();
    const entered = deferred();
    const slow = new ScriptedModel([
      async () => {
        entered.resolve();
        await gate.promise;
        return textResponse('late');
      },
    ]);
    const runnerA = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model: slow }), sessionService: service });
    const runnerB = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model: new ScriptedModel([textResponse('quick')]) }), sessionService: service });
    await service.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const a = collect(runnerA.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('one') }));
    await entered.promise;
    await collect(runnerB.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('two') }));
    gate.resolve();
    await expect(a).rejects.toMatchObject({ code: 'SESSION_CONFLICT' });
    expect((await stored(service)).map((event) => event.content?.parts?.[0]?.text)).toEqual(['one', 'two', 'quick']);
  });
});
