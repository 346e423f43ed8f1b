// Child entry of `pnpm bench` (see run.mjs):
//   node --expose-gc benchChild.mjs <bench file> <out.json>
// runs one bench's `run()` in a process of its own, so that the heap and the JIT state an earlier
// bench leaves behind weigh on no later one, and writes `{rows, profiles}` (the names of its
// profile workloads) or `{error: {message, stack, code}}` to <out.json>.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [file, out] = process.argv.slice(2);
try {
  const module = await import(pathToFileURL(file).href);
  const rows = await module.run();
  const profiles = module.profiles ? Object.keys(module.profiles).filter((name) => typeof module.profiles[name] === 'function') : undefined;
  writeFileSync(out, JSON.stringify({ rows, profiles }));
} catch (error) {
  writeFileSync(out, JSON.stringify({ error: { message: String(error?.message ?? error), stack: String(error?.stack ?? error), code: error?.code } }));
  process.exitCode = 1;
}
// What a bench left open (a server it did not stop, a timer) must not keep the run waiting.
process.exit();
