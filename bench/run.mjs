// `pnpm bench`: runs every bench/*.bench.mjs in name order, each in a process of its own
// (benchChild.mjs), checks the claims of issue #18 against their rows (claims.mjs), profiles adkit
// where it misses a goal (cpuProfile.mjs), prints the table, writes bench/RESULTS.md and updates
// the root README's quote of its claims table.
//
//   node --expose-gc run.mjs [filter] [--out <file>] [--json <file>] [--note <text>]
//
// With a filter, only the files whose name contains it run, and RESULTS.md is not written unless
// --out names a file; --json writes the rows and claims as JSON; --note adds a paragraph to
// RESULTS.md (what was going on while it ran, say). ADKIT_BENCH_SMOKE=1 makes a smoke
// run (tiny counts, never installs the peer, writes only what --out and --json name).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { evaluateClaims } from './claims.mjs';
import { profileWorkload } from './cpuProfile.mjs';
import { smoke } from './measure.mjs';
import { consoleReport, machine, markdownReport, withSpeedQuote } from './report.mjs';
import { runInChild } from './runInChild.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args.splice(at, 2)[1];
};
const outOption = option('--out');
const json = option('--json');
const note = option('--note');
const [only] = args;
/** A run of every bench that writes bench/RESULTS.md and the README's quote of it. */
const fullRun = !only && !smoke && !outOption;
const out = outOption ?? (fullRun ? `${here}RESULTS.md` : undefined);
/** How long a profile's workload runs. */
const PROFILE_MS = smoke ? 200 : 3_000;
/** How long a bench without a workload of adkit alone is profiled, from its start. */
const WHOLE_RUN_MS = smoke ? 1_000 : 20_000;

const files = (await readdir(here)).filter((f) => f.endsWith('.bench.mjs') && (!only || f.includes(only))).sort();
if (files.length === 0) throw new Error(`No benchmark matches "${only}" in ${here}`);
if (!globalThis.gc) console.warn('(run with node --expose-gc for steadier numbers)');

const info = machine();
const results = new Map();
const rows = [];
const failures = [];
const durations = [];
for (const file of files) {
  const bench = file.replace('.bench.mjs', '');
  process.stdout.write(`running ${file} …\n`);
  const start = performance.now();
  const { rows: benchRows, profiles, error } = runInChild(here + file);
  if (error) {
    process.stdout.write(`  ${file} failed: ${error.stack}\n`);
    results.set(bench, { error });
    failures.push({ bench, error });
  } else {
    const named = benchRows.map((row) => ({ bench, ...row }));
    results.set(bench, { rows: named, profiles });
    rows.push(...named);
  }
  durations.push({ bench, seconds: (performance.now() - start) / 1e3 });
}

const claims = evaluateClaims(results);
const profiled = new Map();
for (const claim of claims.filter((c) => c.status === 'missed' && c.profile)) {
  if (smoke && profiled.size > 0) break;
  const { file, workload } = claim.profile;
  const key = `${file}#${workload}`;
  if (!profiled.has(key)) {
    process.stdout.write(`profiling ${key} (missed: ${claim.measure}) …\n`);
    const profiles = results.get(file.replace('.bench.mjs', ''))?.profiles;
    const own = profiles?.includes(workload) ?? false;
    if (!own && profiles) {
      // The bench has workloads, but none for this case: its whole run would profile other cases.
      profiled.set(key, { note: `No profile: bench/${file} exports no workload for this case (\`profiles[${JSON.stringify(workload)}]\`).` });
      claim.profileNote = profiled.get(key).note;
      continue;
    }
    try {
      profiled.set(key, {
        summary: profileWorkload({ file, workload: own ? workload : '', ms: own ? PROFILE_MS : WHOLE_RUN_MS }),
        note: own
          ? undefined
          : `bench/${file} exports no workload of adkit alone (\`profiles[${JSON.stringify(workload)}]\`), so this profile covers the first ${WHOLE_RUN_MS / 1e3} s of its whole run, anchors included.`,
      });
    } catch (error) {
      profiled.set(key, { note: `The profile failed: ${String(error.message ?? error).split('\n')[0]}` });
    }
  }
  claim.profileSummary = profiled.get(key).summary;
  claim.profileNote = profiled.get(key).note;
}

const loadAfter = machine().load;
console.log(consoleReport({ rows, claims, info }));
if (out) {
  const markdown = markdownReport({ rows, claims, info, loadAfter, failures, durations, smoke, note });
  await writeFile(out, markdown);
  console.log(`wrote ${out}`);
  if (fullRun) {
    const readme = `${here}../README.md`;
    await writeFile(readme, withSpeedQuote(await readFile(readme, 'utf8'), markdown));
    console.log(`updated the Speed section of ${readme}`);
  }
}
if (json) {
  const plain = claims.map(({ profileSummary, ...claim }) => ({ ...claim, profiled: profileSummary !== undefined }));
  await writeFile(json, JSON.stringify({ rows, claims: plain, failures: failures.map(({ bench, error }) => ({ bench, message: String(error.message ?? error), code: error.code })), durations }, null, 2));
}
if (failures.length > 0) process.exitCode = 1;
