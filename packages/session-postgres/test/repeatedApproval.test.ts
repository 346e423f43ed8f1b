// #23 point 3 on Postgres, two runners in one process (each with its own PostgresSessionService on
// one schema): the same approval delivered to the second runner while the approved tool runs in
// the first is refused (`CALL_IN_PROGRESS`, nothing saved); the tool runs once and its result is
// saved and reaches the model; nothing says "interrupted". Two processes: multiProcess.test.ts.
import { LlmAgent, REQUEST_CONFIRMATION_FUNCTION, Runner, createUserContent, getFunctionCalls, getFunctionResponses, type Content, type Event, type Model, type RunnableTool } from '@adkit/flow';
import { functionCallResponse, textResponse } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { PostgresSessionService } from '../src/postgresSessionService.js';
import { PG_URL, freshSchema, testPool } from './support/pgTest.js';

const model: Model = {
  model: 'stateless',
  async *generateContent(request) {
    const answer = request.contents.flatMap((c) => c.parts ?? []).findLast((p) => p.functionResponse?.name === 'pay')?.functionResponse?.response;
    yield answer && !answer.error ? textResponse(`model saw: ${JSON.stringify(answer)}`) : functionCallResponse([{ name: 'pay', args: { amount: 10 }, id: 'p1' }]);
  },
};

async function collect(runner: Runner, newMessage: Content): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage })) if (!event.partial) events.push(event);
  return events;
}

describe.skipIf(!PG_URL)('#23 point 3 on Postgres, two runners in one process', () => {
  it('the same approval delivered twice while the tool runs: the tool runs once, its result is kept, the second delivery is refused', async () => {
    const schema = freshSchema();
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const finish = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const pay: RunnableTool = {
      name: 'pay',
      description: 'Pays.',
      declaration: () => ({ name: 'pay', description: 'Pays.', parametersJsonSchema: { type: 'object' } }),
      async run(ctx, args) {
        if (!ctx.toolConfirmation) {
          ctx.requestConfirmation({ hint: 'Pay 10?' });
          return { error: 'pay requires confirmation' };
        }
        runs++;
        entered();
        await finish;
        return { paid: args.amount };
      },
    };
    const serviceA = new PostgresSessionService({ pool: testPool(), schema });
    const serviceB = new PostgresSessionService({ pool: testPool(), schema });
    const runnerOn = (sessionService: PostgresSessionService) =>
      new Runner({ appName: 'app', agent: new LlmAgent({ name: 'teller', model, tools: [pay] }), sessionService, autoCreateSession: true });
    const [a, b] = [runnerOn(serviceA), runnerOn(serviceB)];

    const paused = await collect(a, createUserContent('pay 10'));
    const request = paused.flatMap(getFunctionCalls).find((c) => c.name === REQUEST_CONFIRMATION_FUNCTION)!;
    const approval: Content = { role: 'user', parts: [{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION_FUNCTION, response: { confirmed: true } } }] };

    const first = collect(a, approval);
    await inside;
    expect((await collect(b, approval)).map((e) => e.errorCode)).toEqual(['CALL_IN_PROGRESS']);
    release();
    const done = await first;
    expect(done.flatMap(getFunctionResponses)).toEqual([{ id: 'p1', name: 'pay', response: { paid: 10 } }]);
    expect(done.at(-1)!.content!.parts![0]!.text).toBe('model saw: {"paid":10}');
    expect(runs).toBe(1);
    const events = (await serviceB.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!.events;
    expect(JSON.stringify(events)).not.toContain('interrupted');
    expect(events.filter((e) => e.author === 'user')).toHaveLength(2);
    expect(events.some((e) => e.errorCode)).toBe(false);
  });
});
