// Issue #23 follow-up on SQLite: two runners, each with its own SqliteSessionService on one file
// (as two servers would), a new user message saved while an approved call runs. The call's result
// is still saved (appended to the reloaded session), both runs end without SESSION_CONFLICT, and
// the next turn's model gets the result. Coordination by overlap (promises), no sleeps.
import { afterEach, describe, expect, it } from 'vitest';
import {
  LlmAgent,
  REQUEST_CONFIRMATION_FUNCTION,
  Runner,
  createUserContent,
  getFunctionCalls,
  getFunctionResponses,
  type Content,
  type Event,
  type RunnableTool,
  type SessionService,
} from '@adkit/flow';
import { functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { SqliteSessionService } from '../src/sqliteSessionService.js';
import { tempDir } from './support/tempDir.js';

const dirs: Array<ReturnType<typeof tempDir>> = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function collect(gen: AsyncIterable<Event>, onEvent: (event: Event) => void = () => {}): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of gen) {
    events.push(event);
    onEvent(event);
  }
  return events;
}

const paid = (events: readonly Event[]) => events.flatMap(getFunctionResponses).filter((r) => r.name === 'pay' && !('error' in (r.response ?? {})));

describe('a resumed call\'s result is never lost to a new message, on SQLite (#23)', () => {
  it.each(['new message first', 'result first'] as const)('%s: the result is saved once, nothing fails, the next turn sees it', async (order) => {
    const dir = tempDir();
    dirs.push(dir);
    const path = dir.file('sessions.db');
    const started = deferred();
    const finish = deferred();
    const resultSaved = deferred();
    let runs = 0;
    const pay: RunnableTool = {
      name: 'pay',
      description: 'Pays a bill.',
      declaration: () => ({ name: 'pay', description: 'Pays a bill.', parametersJsonSchema: { type: 'object' } }),
      run: async (ctx) => {
        if (!ctx.toolConfirmation) {
          ctx.requestConfirmation({ hint: 'Pay 20 EUR?' });
          return { error: 'This tool call requires confirmation, please approve or reject.' };
        }
        runs++;
        started.resolve();
        await finish.promise;
        return { paid: true, receipt: 'R-7' };
      },
    };
    const modelA = new ScriptedModel([functionCallResponse([{ name: 'pay', args: {}, id: 'call-pay' }])]);
    const modelB = new ScriptedModel([
      async () => {
        if (order === 'result first') {
          finish.resolve();
          await resultSaved.promise;
        }
        return textResponse('It is sunny.');
      },
      textResponse('Paid, receipt R-7.'),
    ]);
    const serviceA = new SqliteSessionService({ path });
    const serviceB = new SqliteSessionService({ path });
    const runner = (model: ScriptedModel, service: SqliteSessionService) =>
      new Runner({ appName: 'app', agent: new LlmAgent({ name: 'shop', model, tools: [pay] }), sessionService: service as SessionService, confirmationSecret: 'k' });
    const runnerA = runner(modelA, serviceA);
    const runnerB = runner(modelB, serviceB);
    const send = (r: Runner, message: Content, onEvent?: (event: Event) => void) => collect(r.runAsync({ userId: 'u', sessionId: 's', newMessage: message }), onEvent);
    await serviceA.createSession({ appName: 'app', userId: 'u', sessionId: 's' });

    const first = await send(runnerA, createUserContent('pay the bill'));
    const request = first.flatMap(getFunctionCalls).find((call) => call.name === REQUEST_CONFIRMATION_FUNCTION)!;
    const approval: Content = { role: 'user', parts: [{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION_FUNCTION, response: { confirmed: true } } }] };
    const resumed = send(runnerA, approval, (event) => {
      if (paid([event]).length > 0) resultSaved.resolve();
    });
    await started.promise;
    const other = send(runnerB, createUserContent('what is the weather?'));
    if (order === 'new message first') {
      await other;
      finish.resolve();
    }
    const [resumedEvents, otherEvents] = await Promise.all([resumed, other]);
    expect(paid(resumedEvents).map((r) => r.response)).toEqual([{ paid: true, receipt: 'R-7' }]);
    expect(otherEvents.at(-1)!.content!.parts![0]!.text).toBe('It is sunny.');
    expect(runs).toBe(1);
    expect(modelA.requests).toHaveLength(1);

    // A third process reads the file: the result is stored once.
    const reader = new SqliteSessionService({ path });
    const events = (await reader.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!.events;
    expect(paid(events).map((r) => r.response)).toEqual([{ paid: true, receipt: 'R-7' }]);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    const next = await send(runnerB, createUserContent('and the bill?'));
    expect(next.at(-1)!.content!.parts![0]!.text).toBe('Paid, receipt R-7.');
    expect(JSON.stringify(modelB.requests[1]!.contents)).toContain('Update from function pay');
    for (const service of [serviceA, serviceB, reader]) await service.close();
  });
});
