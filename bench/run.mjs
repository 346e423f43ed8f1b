// Runs every bench/*.bench.mjs in name order and prints one table: `pnpm bench` from the root.
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatDuration } from './measure.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv[2];
const files = (await readdir(here)).filter((f) => f.endsWith('.bench.mjs') && (!only || f.includes(only))).sort();
if (files.length === 0) throw new Error(`No benchmark matches "${only}" in ${here}`);
if (!globalThis.gc) console.warn('(run with node --expose-gc for steadier numbers)');

const rows = [];
for (const file of files) {
  const bench = await import(pathToFileURL(here + file).href);
  process.stdout.write(`running ${file} …\n`);
  for (const row of await bench.run()) rows.push({ bench: file.replace('.bench.mjs', ''), ...row });
}

const table = rows.map((r) => [
  r.bench,
  r.case,
  formatDuration(r.ns),
  r.ratio === undefined ? '1×' : `${r.ratio.toFixed(2)}×`,
  r.note ?? '',
]);
const header = ['bench', 'case', 'per call (median)', 'ratio', 'note'];
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
console.log(`\nnode ${process.version}, ${new Date().toISOString()}`);
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of table) console.log(line(row));
