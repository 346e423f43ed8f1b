// Session growth (issue #15): what one more function-call turn costs when the session already
// holds 10, 100, 1,000 or 5,000 events, for each store, next to @google/adk's in-memory store.
//
// A turn is a whole runner turn: load the session, append the user's message, the model asks for
// `add`, the tool runs, the model answers; four events are appended. The model is the same
// minimal scripted model for both frameworks (it copies nothing), so what grows with the session
// is the framework's own work: loading the session, building the history, appending.
//
// Sessions are filled through each service's own appendEvent with the events of earlier turns
// (user text, model call, function response, model text), then measured for 15 rounds of one
// turn per session, every size in each round; the median round counts. Postgres runs when ADKIT_TEST_PG_URL is set or the
// Postgres binaries are found (a throwaway cluster is started; see packages/session-postgres).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEvent, createUserContent, InMemorySessionService, LlmAgent, Runner } from '@adkit/flow';
import { functionTool } from '@adkit/function-tool';
import { SqliteSessionService } from '@adkit/session-sqlite';
import pg from 'pg';
import Type from 'typebox';
import { findPostgresBin, HOW_TO_ENABLE, startCluster } from '../packages/session-postgres/test/support/pgCluster.mjs';
import { betweenRounds, counts, formatDuration, median } from './measure.mjs';
import { loadPeer } from './peer.mjs';

export const title = 'sessions: one function-call turn as the session grows, adkit vs @google/adk';

const SIZES = counts([10, 100, 1_000, 5_000], [10, 40]);
// Rounds of a 5,000-event size are 3 turns long: a median of 15 of them, not 5, keeps one
// collector pause from moving the result.
const ROUNDS = counts(15, 1);
const WARMUP_TURNS = counts(200, 4);
/** Sessions per size: one turn each per round. Fewer for big sessions (filling them takes time). */
const sessionsFor = (size) => counts(size >= 5_000 ? 3 : size >= 1_000 ? 6 : 20, 2);
const APP = 'bench';
const USER = 'u';

const LABELS = {
  memory: 'adkit InMemorySessionService',
  sqlite: 'adkit SqliteSessionService (file, WAL)',
  postgres: 'adkit PostgresSessionService (127.0.0.1)',
};

/** The model's two steps of a turn: call `add`, then answer. The same replies for both frameworks. */
const reply = (request) =>
  request.contents.at(-1)?.parts?.some((part) => part.functionResponse)
    ? { content: { role: 'model', parts: [{ text: 'done' }] } }
    : { content: { role: 'model', parts: [{ functionCall: { name: 'add', args: { a: 1, b: 2 } } }] } };

/** The i-th stored event of an earlier turn, as plain data both frameworks accept. */
function historyEvent(i, agent) {
  const turn = Math.floor(i / 4);
  const id = `hist-${turn}`;
  switch (i % 4) {
    case 0:
      return { author: 'user', content: { role: 'user', parts: [{ text: `add ${turn}` }] } };
    case 1:
      return { author: agent, content: { role: 'model', parts: [{ functionCall: { id, name: 'add', args: { a: turn, b: 1 } } }] } };
    case 2:
      return { author: agent, content: { role: 'user', parts: [{ functionResponse: { id, name: 'add', response: { sum: turn + 1 } } }] } };
    default:
      return { author: agent, content: { role: 'model', parts: [{ text: `the sum is ${turn + 1}` }] } };
  }
}

/** Runs one turn and checks that it ended with the model's answer. */
async function turn(store, sessionId) {
  let last;
  for await (const event of store.runner.runAsync({ userId: USER, sessionId, newMessage: store.newMessage })) last = event;
  if (last?.content?.parts?.[0]?.text !== 'done') throw new Error(`${store.name}: the turn on ${sessionId} ended with ${JSON.stringify(last)}`);
}

/**
 * Times one turn per session for ROUNDS rounds, every size in each round, for one store
 * (`{name, runner, newMessage, fill(sessionId, size), close?}`). Resolves to `[{size, ns, samples}]`.
 */
async function growth(store) {
  for (let i = 0; i < WARMUP_TURNS; i++) {
    const sessionId = `warm-${Math.floor(i / 20)}`;
    if (i % 20 === 0) await store.fill(sessionId, 0);
    await turn(store, sessionId);
  }
  // Every size is filled first, then each round times every size in turn: all sizes see the same
  // compiled code and the same heap. Timed size by size, the first (10 events) ran on code still
  // warming up and took twice as long as the next (100).
  const sessionsOf = new Map();
  for (const size of SIZES) {
    const ids = [];
    for (let s = 0; s < sessionsFor(size); s++) {
      ids.push(`s-${size}-${s}`);
      await store.fill(ids.at(-1), size);
    }
    sessionsOf.set(size, ids);
  }
  const samples = new Map(SIZES.map((size) => [size, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const size of SIZES) {
      const ids = sessionsOf.get(size);
      betweenRounds();
      const start = process.hrtime.bigint();
      for (const id of ids) await turn(store, id);
      samples.get(size).push(Number(process.hrtime.bigint() - start) / ids.length);
    }
  const results = SIZES.map((size) => ({ size, ns: median(samples.get(size)), samples: samples.get(size) }));
  await store.close?.();
  return results;
}

/** An adkit runner over `sessionService`, filling sessions through its appendEvent. */
export function adkitStore(name, sessionService, close) {
  const model = { model: 'scripted', async *generateContent(request) { yield reply(request); } };
  const add = functionTool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
    execute: async ({ a, b }) => ({ sum: a + b }),
  });
  const runner = new Runner({ appName: APP, agent: new LlmAgent({ name: 'calculator', model, tools: [add] }), sessionService });
  return {
    name,
    runner,
    newMessage: createUserContent('add'),
    async fill(sessionId, size) {
      const session = await sessionService.createSession({ appName: APP, userId: USER, sessionId });
      for (let i = 0; i < size; i++)
        await sessionService.appendEvent(session, createEvent({ invocationId: `fill-${Math.floor(i / 4)}`, ...historyEvent(i, 'calculator') }));
    },
    close,
  };
}

function peerStore(adk, z) {
  class ScriptedPeerModel extends adk.BaseLlm {
    constructor() {
      super({ model: 'scripted' });
    }
    async *generateContentAsync(request) {
      yield reply(request);
    }
    async connect() {
      throw new Error('not used');
    }
  }
  const add = new adk.FunctionTool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => ({ sum: a + b }),
  });
  const sessionService = new adk.InMemorySessionService();
  const runner = new adk.Runner({ appName: APP, agent: new adk.LlmAgent({ name: 'calculator', model: new ScriptedPeerModel(), tools: [add] }), sessionService });
  return {
    name: 'adk in-memory',
    runner,
    newMessage: { role: 'user', parts: [{ text: 'add' }] },
    async fill(sessionId, size) {
      const session = await sessionService.createSession({ appName: APP, userId: USER, sessionId });
      for (let i = 0; i < size; i++)
        await sessionService.appendEvent({ session, event: adk.createEvent({ invocationId: `fill-${Math.floor(i / 4)}`, ...historyEvent(i, 'calculator') }) });
    },
  };
}

/**
 * A Postgres server for the benchmarks: ADKIT_TEST_PG_URL, else a throwaway cluster when the
 * binaries are installed. Each benchmark's tables go in a schema of its own, dropped by `stop()`:
 * `{url, schema(name), stop}`, or `{reason, stop}` when there is none.
 */
export async function postgresForBench() {
  const schemas = [];
  let url = process.env.ADKIT_TEST_PG_URL;
  let cluster;
  if (!url) {
    const bin = findPostgresBin();
    if (!bin) return { reason: HOW_TO_ENABLE, stop: async () => {} };
    cluster = await startCluster(bin);
    url = cluster.url;
  }
  return {
    url,
    schema(name) {
      schemas.push(`adkit_bench_${name}_${process.pid}`);
      return schemas.at(-1);
    },
    async stop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
      cluster?.stop();
    },
  };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'adkit-bench-sessions-'));
  const postgres = await postgresForBench();
  try {
    const stores = [
      [LABELS.memory, () => adkitStore('adkit in-memory', new InMemorySessionService())],
      [
        LABELS.sqlite,
        () => {
          const service = new SqliteSessionService({ path: join(dir, 'sessions.db') });
          return adkitStore('adkit sqlite', service, () => service.close());
        },
      ],
    ];
    let peerLabel;
    try {
      const peer = loadPeer();
      const [adk, { z }] = await Promise.all([peer.adk, peer.zod]);
      peerLabel = `@google/adk ${peer.version} InMemorySessionService`;
      stores.splice(1, 0, [peerLabel, () => peerStore(adk, z)]);
    } catch (error) {
      if (error.code !== 'PEER_NOT_INSTALLED') throw error;
    }
    if (postgres.url) {
      const { PostgresSessionService } = await import('@adkit/session-postgres');
      stores.push([
        LABELS.postgres,
        () => {
          const service = new PostgresSessionService({ connectionString: postgres.url, schema: postgres.schema('growth') });
          return adkitStore('adkit postgres', service, () => service.close());
        },
      ]);
    } else process.stdout.write(`  ${LABELS.postgres} skipped: ${postgres.reason}\n`);

    const rows = [];
    const byStore = new Map();
    for (const [label, make] of stores) {
      process.stdout.write(`  ${label} …\n`);
      const results = await growth(make());
      byStore.set(label, results);
      const [first] = results;
      const last = results.at(-1);
      for (const { size, ns, samples } of results) {
        const row = { case: `${label}: turn at ${size.toLocaleString('en')} events`, ns, samples, ratio: ns / first.ns };
        if (size === last.size)
          row.note = `${formatDuration((last.ns - first.ns) / (last.size - first.size))} per stored event; ${last.size.toLocaleString('en')} vs ${first.size}: ${(last.ns / first.ns).toFixed(2)}×`;
        rows.push(row);
      }
    }
    if (peerLabel)
      for (const [i, { size, ns }] of byStore.get(peerLabel).entries()) {
        const row = rows.find((r) => r.case === `${peerLabel}: turn at ${size.toLocaleString('en')} events`);
        const times = ns / byStore.get(LABELS.memory)[i].ns;
        const versus = times >= 1 ? `adkit in-memory is ${times.toFixed(2)}× faster` : `adkit in-memory is ${(1 / times).toFixed(2)}× slower`;
        row.note = row.note ? `${row.note}; ${versus}` : versus;
      }
    return rows;
  } finally {
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Workloads for CPU profiles (cpuProfile.mjs): turns on sessions of about 5,000 events, per store. */
export const profiles = {
  [LABELS.memory]: profiledTurns(() => adkitStore('adkit in-memory', new InMemorySessionService())),
  [LABELS.sqlite]: profiledTurns(() => {
    const dir = mkdtempSync(join(tmpdir(), 'adkit-bench-sessions-'));
    const service = new SqliteSessionService({ path: join(dir, 'sessions.db') });
    return adkitStore('adkit sqlite', service, async () => {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    });
  }),
};

/** Sessions a profile's turns go round, and the most turns each takes (4 events a turn). */
const PROFILED_SESSIONS = counts(20, 2);
const TURNS_PER_PROFILED_SESSION = counts(150, 2);

/**
 * A profile workload of turns on sessions of 5,000 events. Its `prepare()` (profile.mjs calls it
 * before the profiler starts) warms the store up, fills the sessions and runs the first turn of
 * each, and resolves to the timed part: turns round the sessions, each taking at most
 * TURNS_PER_PROFILED_SESSION, so the profile is of sessions of about that size and not of one that
 * grew for the whole profile (3 s of turns on one session took it past 100,000 events) nor of the
 * filling.
 */
function profiledTurns(makeStore) {
  const workload = async (ms) => (await workload.prepare())(ms);
  workload.prepare = async () => {
    const store = makeStore();
    await store.fill('profile-warm-up', 5_000);
    for (let i = 0; i < TURNS_PER_PROFILED_SESSION; i++) await turn(store, 'profile-warm-up');
    const ids = [];
    for (let s = 0; s < PROFILED_SESSIONS; s++) {
      ids.push(`profile-${s}`);
      await store.fill(ids.at(-1), 5_000);
      // The first turn builds the whole history; the timed rounds of the bench are the later ones.
      await turn(store, ids.at(-1));
    }
    return async (ms) => {
      const end = performance.now() + ms;
      for (let i = 0; i < ids.length * TURNS_PER_PROFILED_SESSION && performance.now() < end; i++) await turn(store, ids[i % ids.length]);
      await store.close?.();
    };
  };
  return workload;
}
