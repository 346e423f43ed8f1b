// Stateless runners sharing one Postgres store (issue #15): 200 sessions × 5 function-call turns,
// run by 4 processes at once against the same run by 1 process, the same 32 turns in flight in
// both. Each worker process is this file run with --worker; the parent creates the sessions,
// starts the workers, waits until all are ready, then times from "go" until the last is done.
// Needs a Postgres server: ADKIT_TEST_PG_URL, or the binaries for a throwaway cluster.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { PostgresSessionService } from '@adkit/session-postgres';
import { counts, formatDuration } from './measure.mjs';
import { adkitStore, postgresForBench } from './sessions.bench.mjs';

export const title = 'sessions throughput: 4 runner processes vs 1 on one Postgres store';

const SESSIONS = counts(200, 8);
const TURNS = counts(5, 2);
const IN_FLIGHT = 32;

if (process.argv[2] === '--worker') await worker(process.argv.slice(3));

/** A worker: runs TURNS turns on each of its sessions, `inFlight` sessions at a time. */
async function worker([url, schema, inFlight, ...sessionIds]) {
  const service = new PostgresSessionService({ connectionString: url, schema });
  const store = adkitStore('worker', service);
  await store.runner.sessionService.getSession({ appName: 'bench', userId: 'u', sessionId: sessionIds[0] }); // connect, migrate
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  const queue = [...sessionIds];
  await Promise.all(
    Array.from({ length: Number(inFlight) }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift())
        for (let t = 0; t < TURNS; t++) {
          let last;
          for await (const event of store.runner.runAsync({ userId: 'u', sessionId: id, newMessage: store.newMessage })) last = event;
          if (last?.content?.parts?.[0]?.text !== 'done') throw new Error(`turn ${t} of ${id} ended with ${JSON.stringify(last)}`);
        }
    }),
  );
  await service.close();
  process.stdout.write('done\n');
  process.exit(0);
}

/** Times SESSIONS × TURNS turns split over `processes` workers; resolves to the wall time in ns. */
async function timeProcesses(url, schema, processes) {
  const service = new PostgresSessionService({ connectionString: url, schema });
  const ids = Array.from({ length: SESSIONS }, (_, i) => `p${processes}-s${i}`);
  for (const sessionId of ids) await service.createSession({ appName: 'bench', userId: 'u', sessionId });
  await service.close();
  const script = fileURLToPath(import.meta.url);
  const children = Array.from({ length: processes }, (_, w) => {
    const mine = ids.filter((_, i) => i % processes === w);
    const child = spawn(process.execPath, [script, '--worker', url, schema, String(IN_FLIGHT / processes), ...mine], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () => {
      const { value } = await lines.next();
      if (value === undefined) throw new Error(`worker ${w} exited early`);
      return value;
    };
    return { child, next };
  });
  for (const { next } of children) if ((await next()) !== 'ready') throw new Error('a worker did not start');
  const start = process.hrtime.bigint();
  for (const { child } of children) child.stdin.write('go\n');
  for (const { next } of children) if ((await next()) !== 'done') throw new Error('a worker failed');
  return Number(process.hrtime.bigint() - start);
}

export async function run() {
  const postgres = await postgresForBench();
  if (!postgres.url) {
    process.stdout.write(`  skipped: ${postgres.reason}\n`);
    return [];
  }
  try {
    const turns = SESSIONS * TURNS;
    const one = await timeProcesses(postgres.url, postgres.schema('tp1'), 1);
    const four = await timeProcesses(postgres.url, postgres.schema('tp4'), 4);
    const what = `${SESSIONS} sessions × ${TURNS} function-call turns on Postgres, ${IN_FLIGHT} in flight`;
    return [
      { case: `${what}, 1 process: per turn`, ns: one / turns, note: `${((turns / one) * 1e9).toFixed(0)} turns/s; all: ${formatDuration(one)}` },
      {
        case: `${what}, 4 processes: per turn`,
        ns: four / turns,
        ratio: four / one,
        note: `${((turns / four) * 1e9).toFixed(0)} turns/s; all: ${formatDuration(four)}; ${(one / four).toFixed(2)}× the throughput of 1 process`,
      },
    ];
  } finally {
    await postgres.stop();
  }
}
