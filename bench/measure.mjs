// Timing helpers shared by the benchmarks: warm-up, several rounds, the median and the spread.
import { spawnSync } from 'node:child_process';

/**
 * True in a smoke run (`ADKIT_BENCH_SMOKE=1`, set by `run.mjs --smoke` and the smoke test): every
 * benchmark runs once with tiny counts, to prove it still works; its numbers mean nothing.
 */
export const smoke = process.env.ADKIT_BENCH_SMOKE === '1';

/** `full` in a real run, `tiny` in a smoke run. */
export function counts(full, tiny) {
  return smoke ? tiny : full;
}

/**
 * What runs before each timed round (with --expose-gc): a scavenge, so that the garbage one case
 * left in the young generation is not collected on the next case's time. Not a full GC: a forced
 * full collection puts both frameworks back in a cold state (measured: a runner turn ran ~7×
 * slower in a 300-turn round after one, adkit and @google/adk alike), so rounds measured the
 * recovery from it more than the code (#24).
 */
export function betweenRounds() {
  globalThis.gc?.({ type: 'minor' });
}

/** The options of a timing loop, cut down to a token run in smoke mode. */
function loopOptions({ warmup, rounds, minMs, batch }) {
  if (!smoke) return { warmup, rounds, minMs, batch };
  return { warmup: Math.min(warmup, 2), rounds: Math.min(rounds, 2), minMs: 0, batch: Math.min(batch, 2) };
}

/**
 * Times an async operation: `warmup` calls first, then `rounds` rounds of at least `minMs` each
 * (whole batches of `batch` calls, at least one), with a scavenge between rounds when node runs with --expose-gc (`betweenRounds`).
 * `operation` gets the call's index, counted across warm-up and rounds. Resolves to the median
 * nanoseconds per call.
 */
export async function measure(operation, options = {}) {
  const [result] = await alternate([operation], options);
  return result.ns;
}

/**
 * Times several async operations in alternating rounds, so that each sees the same machine load:
 * each is warmed up (`warmup` calls), then every round runs each operation for at least `minMs`
 * (whole batches of `batch` calls), starting with a different operation each round, a scavenge
 * before each (`betweenRounds`, with --expose-gc). `operations[k]` gets its own call index. Resolves to one
 * `{ns, samples}` per operation: the median and every round's nanoseconds per call.
 */
export async function alternate(operations, options = {}) {
  const { warmup, rounds, minMs, batch } = loopOptions({ warmup: 20_000, rounds: 7, minMs: 300, batch: 1_000, ...options });
  const calls = operations.map(() => 0);
  for (const [k, operation] of operations.entries()) while (calls[k] < warmup) await operation(calls[k]++);
  const samples = operations.map(() => []);
  for (let round = 0; round < rounds; round++)
    for (let j = 0; j < operations.length; j++) {
      const k = (round + j) % operations.length;
      const operation = operations[k];
      betweenRounds();
      let done = 0;
      const start = process.hrtime.bigint();
      const end = start + BigInt(minMs) * 1_000_000n;
      let now;
      do {
        for (let i = 0; i < batch; i++) await operation(calls[k]++);
        done += batch;
        now = process.hrtime.bigint();
      } while (now < end);
      samples[k].push(Number(now - start) / done);
    }
  return samples.map((list) => ({ ns: median(list), samples: list }));
}

/**
 * Runs `body` (an ES module's source, run with `cwd` as its folder) in fresh node processes, one
 * body after the other, `runs` times: the body prints a number of milliseconds. Resolves to one
 * `{ns, samples}` per body, like `alternate`.
 */
export function alternateProcesses(bodies, { runs, cwd }) {
  const samples = bodies.map(() => []);
  for (let run = 0; run < counts(runs, 1); run++)
    for (let j = 0; j < bodies.length; j++) {
      const k = (run + j) % bodies.length;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', bodies[k]], { cwd, encoding: 'utf8' });
      if (child.status !== 0) throw new Error(`a child process failed (${child.status}): ${child.stderr}`);
      const ms = Number(child.stdout.trim());
      if (!Number.isFinite(ms)) throw new Error(`a child process printed ${JSON.stringify(child.stdout)}, not milliseconds`);
      samples[k].push(ms * 1e6);
    }
  return samples.map((list) => ({ ns: median(list), samples: list }));
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Nanoseconds in a short human unit. */
export function formatDuration(ns) {
  if (ns < 0) return `−${formatDuration(-ns)}`;
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(1)} ns`;
}

/** The lowest and highest round, in the unit of the median: `1.20–1.31 µs`. */
export function formatSpread(samples) {
  if (!samples || samples.length < 2) return '';
  const [, unit] = formatDuration(Math.abs(median(samples))).split(' ');
  const scale = { s: 1e9, ms: 1e6, 'µs': 1e3, ns: 1 }[unit];
  const digits = unit === 'ns' ? 1 : 2;
  const number = (ns) => `${ns < 0 ? '−' : ''}${(Math.abs(ns) / scale).toFixed(digits)}`;
  return `${number(Math.min(...samples))}–${number(Math.max(...samples))} ${unit}`;
}

/** Bytes in megabytes as `du -h` counts them (1 MB = 2^20 bytes). */
export function formatBytes(bytes) {
  return bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MB` : `${(bytes / 2 ** 10).toFixed(0)} kB`;
}
