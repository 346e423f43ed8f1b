// Stateless runners in separate processes sharing one Postgres schema (issue #15): any process may
// run any turn of any session, a stale write is a conflict and never an interleaved history, and a
// paused confirmation approved in another process runs its tool exactly once. Bad input tried:
// the same approval delivered to two processes at once, an approval delivered again after it was
// used, two processes starting a turn on one session from the same loaded version, the same
// approval delivered to a second process while the tool runs in the first (#23 point 3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserContent, REQUEST_CONFIRMATION_FUNCTION, type Content, type Event, type FunctionCall } from '@adkit/flow';
import { PostgresSessionService } from '../src/postgresSessionService.js';
import { PG_URL, schemaName, testPool } from './support/pgTest.js';
import { startWorkers, type RunnerWorker } from './support/workers.js';

interface EventSummary {
  author: string;
  text?: string;
  calls?: FunctionCall[];
  responses?: { id?: string; name: string; response?: Record<string, unknown> }[];
  errorCode?: string;
  errorMessage?: string;
}
interface RunAnswer {
  events?: EventSummary[];
  error?: { code: string; message: string };
}
interface RoundAnswer {
  turns: number;
  conflicts: number;
  errors: string[];
}
interface ToolRun {
  session_id: string;
  call_id: string;
  tool: string;
  args: string;
  worker: string;
}

const approval = (confirmationId: string, confirmed = true): Content => ({
  role: 'user',
  parts: [{ functionResponse: { id: confirmationId, name: REQUEST_CONFIRMATION_FUNCTION, response: { confirmed } } }],
});

describe.skipIf(!PG_URL)('runners in separate processes on one Postgres schema', () => {
  const schema = schemaName();
  let workers: RunnerWorker[] = [];
  let service: PostgresSessionService;
  const run = (worker: RunnerWorker, sessionId: string, message: Content, gate?: string, hold?: string) =>
    worker.send<RunAnswer>({ op: 'run', sessionId, message, gate, hold });
  const toolRuns = async (sessionId?: string) =>
    (
      await testPool().query<ToolRun>(
        `SELECT session_id, call_id, tool, args, worker FROM "${schema}".tool_runs WHERE $1::text IS NULL OR session_id = $1 ORDER BY n`,
        [sessionId ?? null],
      )
    ).rows;
  const create = (sessionId: string) => service.createSession({ appName: 'load', userId: 'u', sessionId });
  const stored = async (sessionId: string) => (await service.getSession({ appName: 'load', userId: 'u', sessionId }))!.events;

  beforeAll(async () => {
    await testPool().query(
      `CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".tool_runs (n bigserial, session_id text, call_id text, tool text, args text, worker text)`,
    );
    service = new PostgresSessionService({ pool: testPool(), schema });
    workers = await startWorkers(['A', 'B', 'C', 'D'], PG_URL!, schema);
  }, 60_000);

  afterAll(async () => {
    for (const worker of workers) worker.stop();
    await service?.close();
    await testPool().query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });

  it('load: 4 processes run 200 sessions × 5 function-call turns, each turn on another process than the last; every event once, in order, every tool run once', { timeout: 120_000 }, async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `load-${i}`);
    for (const id of ids) await create(id);
    for (let turn = 1; turn <= 5; turn++) {
      const answers = await Promise.all(
        workers.map((worker, w) =>
          worker.send<RoundAnswer>({ op: 'round', turn, sessionIds: ids.filter((_, i) => (i + turn) % 4 === w), concurrency: 8 }),
        ),
      );
      expect(answers.flatMap((a) => a.errors)).toEqual([]);
      expect(answers.map((a) => a.conflicts)).toEqual([0, 0, 0, 0]);
      expect(answers.reduce((sum, a) => sum + a.turns, 0)).toBe(200);
    }

    const runs = await toolRuns();
    expect(runs).toHaveLength(1000);
    expect(new Set(runs.map((r) => r.call_id)).size).toBe(1000);
    const runByCall = new Map(runs.map((r) => [r.call_id, r]));
    const eventIds = new Set<string>();
    for (const [i, id] of ids.entries()) {
      const events = await stored(id);
      for (const event of events) eventIds.add(event.id);
      expect(events.map(describeEvent)).toEqual(
        [1, 2, 3, 4, 5].flatMap((turn) => [`user: turn ${turn}`, `clerk calls record {"turn":${turn}}`, 'clerk answers record', 'clerk: done record']),
      );
      for (let turn = 1; turn <= 5; turn++) {
        const callId = events[(turn - 1) * 4 + 1]!.content!.parts![0]!.functionCall!.id!;
        // The tool ran once for this call, in the process that ran the turn.
        expect(runByCall.get(callId)).toEqual({ session_id: id, call_id: callId, tool: 'record', args: `{"turn":${turn}}`, worker: 'ABCD'[(i + turn) % 4] });
        expect(events[(turn - 1) * 4 + 2]!.content!.parts![0]!.functionResponse).toMatchObject({ id: callId, response: { ok: true, by: 'ABCD'[(i + turn) % 4] } });
      }
    }
    expect(eventIds.size).toBe(200 * 20);
  });

  it('two processes starting a turn on one session from the same loaded version: exactly one conflict, one clean turn', { timeout: 30_000 }, async () => {
    await create('race');
    const [a, b] = [workers[0]!, workers[1]!];
    const answers = [run(a, 'race', createUserContent('turn 1'), 'race-a'), run(b, 'race', createUserContent('turn 1'), 'race-b')];
    await Promise.all([a.send({ op: 'reached', gate: 'race-a' }), b.send({ op: 'reached', gate: 'race-b' })]);
    await Promise.all([a.send({ op: 'open', gate: 'race-a' }), b.send({ op: 'open', gate: 'race-b' })]);
    const [first, second] = await Promise.all(answers);

    const outcomes = [first!, second!];
    const lost = outcomes.filter((o) => o.error);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.error).toMatchObject({ code: 'SESSION_CONFLICT' });
    expect(lost[0]!.error!.message).toMatch(/^Session "race" of app "load" and user "u" changed since it was loaded/);
    const winner = first!.error ? 'B' : 'A';
    expect((await stored('race')).map(describeEvent)).toEqual(['user: turn 1', 'clerk calls record {"turn":1}', 'clerk answers record', 'clerk: done record']);
    expect((await toolRuns('race')).map((r) => r.worker)).toEqual([winner]);
  });

  it('HC-8: a confirmation paused in process A and approved in process B runs the tool exactly once, in B; a re-sent approval runs nothing', { timeout: 30_000 }, async () => {
    await create('trip-1');
    const [a, b] = [workers[0]!, workers[1]!];
    const paused = await run(a, 'trip-1', createUserContent('book rome'));
    const request = paused.events!.flatMap((e) => e.calls ?? []).find((c) => c.name === REQUEST_CONFIRMATION_FUNCTION)!;
    expect(request.args).toMatchObject({ originalFunctionCall: { name: 'book', args: { trip: 'rome' } } });
    expect(await toolRuns('trip-1')).toEqual([]);

    const approved = await run(b, 'trip-1', approval(request.id!));
    expect(approved.error).toBeUndefined();
    expect(approved.events!.flatMap((e) => e.responses ?? []).filter((r) => r.name === 'book')).toEqual([
      expect.objectContaining({ response: { ok: true, by: 'B' } }),
    ]);
    expect(approved.events!.at(-1)!.text).toBe('done book');
    expect((await toolRuns('trip-1')).map((r) => [r.tool, r.args, r.worker])).toEqual([['book', '{"trip":"rome"}', 'B']]);

    const again = await run(a, 'trip-1', approval(request.id!));
    expect(again.events!.at(-1)).toMatchObject({ errorCode: 'CONFIRMATION_ALREADY_USED' });
    expect(await toolRuns('trip-1')).toHaveLength(1);
  });

  it('HC-8: the same approval reaching two processes at once runs the tool once; the other process gets a conflict', { timeout: 30_000 }, async () => {
    await create('trip-2');
    const [a, b] = [workers[2]!, workers[3]!];
    const paused = await run(a, 'trip-2', createUserContent('book paris'));
    const request = paused.events!.flatMap((e) => e.calls ?? []).find((c) => c.name === REQUEST_CONFIRMATION_FUNCTION)!;

    const answers = [run(a, 'trip-2', approval(request.id!), 'twice-a'), run(b, 'trip-2', approval(request.id!), 'twice-b')];
    await Promise.all([a.send({ op: 'reached', gate: 'twice-a' }), b.send({ op: 'reached', gate: 'twice-b' })]);
    await Promise.all([a.send({ op: 'open', gate: 'twice-a' }), b.send({ op: 'open', gate: 'twice-b' })]);
    const outcomes = await Promise.all(answers);

    expect(outcomes.filter((o) => o.error?.code === 'SESSION_CONFLICT')).toHaveLength(1);
    const winner = outcomes[0]!.error ? 'D' : 'C';
    expect((await toolRuns('trip-2')).map((r) => [r.tool, r.worker])).toEqual([['book', winner]]);
    const events = await stored('trip-2');
    expect(events.filter((e) => e.author === 'user')).toHaveLength(2);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('done book');
  });

  it('#23 point 3: the same approval delivered to process B while the approved tool runs in process A: the tool runs once, its result is saved and reaches the model, B is refused', { timeout: 30_000 }, async () => {
    await create('trip-3');
    const [a, b] = [workers[0]!, workers[1]!];
    const paused = await run(a, 'trip-3', createUserContent('book lisbon'));
    const request = paused.events!.flatMap((e) => e.calls ?? []).find((c) => c.name === REQUEST_CONFIRMATION_FUNCTION)!;

    const first = run(a, 'trip-3', approval(request.id!), undefined, 'hold-3');
    await a.send({ op: 'reached', gate: 'hold-3' });
    const second = await run(b, 'trip-3', approval(request.id!));
    expect(second.error).toBeUndefined();
    expect(second.events!.map((e) => [e.errorCode, e.errorMessage])).toEqual([
      [
        'CALL_IN_PROGRESS',
        expect.stringMatching(/^Reply refused: call "[^"]+" of tool "book" is still running on this machine\. This answer was already delivered/),
      ],
    ]);

    await a.send({ op: 'open', gate: 'hold-3' });
    const done = await first;
    expect(done.error).toBeUndefined();
    expect(done.events!.flatMap((e) => e.responses ?? []).filter((r) => r.name === 'book')).toEqual([
      expect.objectContaining({ response: { ok: true, by: 'A' } }),
    ]);
    expect(done.events!.at(-1)!.text).toBe('done book');
    expect((await toolRuns('trip-3')).map((r) => r.worker)).toEqual(['A']);
    const events = await stored('trip-3');
    expect(JSON.stringify(events)).not.toContain('interrupted');
    expect(events.filter((e) => e.author === 'user')).toHaveLength(2);
    expect(events.some((e) => e.errorCode)).toBe(false);

    const again = await run(b, 'trip-3', approval(request.id!));
    expect(again.events!.map((e) => e.errorCode)).toEqual(['CONFIRMATION_ALREADY_USED']);
    expect(await stored('trip-3')).toHaveLength(events.length);
  });
});

/** One line per stored event: who said or did what. */
function describeEvent(event: Event): string {
  const part = event.content?.parts?.[0];
  if (part?.text !== undefined) return `${event.author}: ${part.text}`;
  if (part?.functionCall) return `${event.author} calls ${part.functionCall.name} ${JSON.stringify(part.functionCall.args)}`;
  if (part?.functionResponse) return `${event.author} answers ${part.functionResponse.name}`;
  return `${event.author}: ${JSON.stringify(event)}`;
}
