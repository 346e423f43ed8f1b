// Timing helpers shared by the benchmarks: warm-up, several rounds, the median.

/**
 * Times an async operation: `warmup` calls first, then `rounds` rounds of at least `minMs` each
 * (whole batches of `batch` calls, at least one), with a GC between rounds when node runs with --expose-gc.
 * `operation` gets the call's index, counted across warm-up and rounds. Resolves to the median
 * nanoseconds per call.
 */
export async function measure(operation, { warmup = 20_000, rounds = 7, minMs = 300, batch = 1_000 } = {}) {
  let call = 0;
  while (call < warmup) await operation(call++);
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    globalThis.gc?.();
    let calls = 0;
    const start = process.hrtime.bigint();
    const end = start + BigInt(minMs) * 1_000_000n;
    let now;
    do {
      for (let i = 0; i < batch; i++) await operation(call++);
      calls += batch;
      now = process.hrtime.bigint();
    } while (now < end);
    samples.push(Number(now - start) / calls);
  }
  return median(samples);
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Nanoseconds in a short human unit. */
export function formatDuration(ns) {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(1)} ns`;
}
