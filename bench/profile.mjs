// Child entry for CPU profiles (see cpuProfile.mjs):
//   node profile.mjs <bench file> <workload> <ms> <out.cpuprofile>
// runs the bench's `profiles[workload](ms)` under V8's CPU profiler (what `node --cpu-prof`
// records), after a warm-up of a fifth as long unless the workload is marked `once` (a cold start
// must not be warmed). A workload with a `prepare()` is not called itself: prepare(), before the
// profiler starts, warms up and sets up, and resolves to the function that is profiled. With an
// empty workload it profiles the bench's whole `run()`, stopped after <ms>. The profile covers the
// workload only, not the imports before it.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { pathToFileURL } from 'node:url';

const [file, workload, ms, out] = process.argv.slice(2);
const bench = await import(pathToFileURL(file).href);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 250 });

async function finish() {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(out, JSON.stringify(profile));
  process.exit(0);
}

if (workload) {
  const operation = bench.profiles[workload];
  const timed = operation.prepare ? await operation.prepare() : operation;
  if (!operation.once && !operation.prepare) await operation(Number(ms) / 5);
  await session.post('Profiler.start');
  await timed(Number(ms));
} else {
  setTimeout(finish, Number(ms)).unref();
  await session.post('Profiler.start');
  await bench.run();
}
await finish();
