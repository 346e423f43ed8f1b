// What `pnpm bench` prints and writes: the machine, the claims table, the profiles of missed goals
// and every row of every bench, as a console table and as bench/RESULTS.md.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { profileMarkdown } from './cpuProfile.mjs';
import { formatBytes, formatDuration, formatSpread } from './measure.mjs';

const repo = fileURLToPath(new URL('../', import.meta.url));

/** The machine and the code measured: what RESULTS.md opens with. */
export function machine() {
  const git = (...args) => {
    try {
      return execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: cpus().length,
    memory: `${Math.round(totalmem() / 2 ** 30)} GB`,
    os: `${platform()} ${release()}`,
    commit: git('rev-parse', '--short', 'HEAD'),
    dirty: git('status', '--porcelain', '--untracked-files=no').length > 0,
    load: loadavg(),
  };
}

/** A row's value as text: a duration or a size. */
function value(row) {
  if (row.bytes !== undefined) return `${formatBytes(row.bytes)}${row.packages === undefined ? '' : `, ${row.packages} package${row.packages === 1 ? '' : 's'}`}`;
  return formatDuration(row.ns);
}

function ratio(row, index, rows) {
  if (row.ratio !== undefined) return `${row.ratio.toFixed(2)}×`;
  return index === 0 || rows[index - 1].bench !== row.bench ? '1×' : '';
}

/** Lines padded into columns. */
function columns(header, table) {
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...table.map(line)].join('\n');
}

const result = (claim) => (claim.status === 'not measured yet' ? `not measured yet: ${claim.reason}` : claim.status);

/** The console report: every row, then the claims. */
export function consoleReport({ rows, claims, info }) {
  const detail = columns(
    ['bench', 'case', 'median', 'spread', 'ratio', 'note'],
    rows.map((row, i) => [row.bench, row.case, value(row), formatSpread(row.samples), ratio(row, i, rows), row.note ?? '']),
  );
  const table = columns(
    ['measure', 'adkit', 'anchor', 'ratio', 'goal', 'result'],
    claims.map((c) => [c.measure, c.adkit ?? '', c.anchor ?? '', c.ratio ?? '', c.goal ?? '', result(c)]),
  );
  return `\nnode ${info.node}, ${info.date}, ${info.cpu} × ${info.cores}\n\n${detail}\n\nClaims (issues #18, #24):\n${table}\n`;
}

const cell = (text) => String(text ?? '').replaceAll('|', '\\|');

/** bench/RESULTS.md. */
export function markdownReport({ rows, claims, info, loadAfter, failures, durations, smoke, note }) {
  const cores = info.cores;
  // Only the load before the run says whether other work was going on: the load at its end is
  // mostly the bench's own (each bench in a process of its own, four at once in sessionsThroughput).
  const before = info.load[0];
  const out = [
    '# adkit benchmark results',
    '',
    'Written by `pnpm bench` (bench/run.mjs); do not edit by hand. The root README quotes the claims below.',
    '',
    `Measured ${info.date.slice(0, 10)} on ${info.cpu} × ${cores} cores, ${info.memory} RAM, ${info.os}, Node ${info.node}; adkit at commit ${info.commit || 'unknown'}${info.dirty ? ' with uncommitted changes' : ''}. ` +
      `Load average (1 min) at the start ${info.load[0].toFixed(2)}, at the end ${loadAfter[0].toFixed(2)} (the bench's own processes included), on ${cores} cores.` +
      (before > cores * 0.75
        ? ' **The machine was busy with other work during this run**, so absolute times are higher than on an idle machine and vary more; ratios are steadier, because each case runs in rounds that alternate with its anchor, so both see the same load.'
        : ''),
    '',
    'Each time is the median of several rounds that alternate between adkit and its anchor (in brackets: the fastest and slowest round). ' +
      'Anchors: `@google/adk` 2.0.0, installed on demand into `bench/peer` and given the same scripted model, the same schemas (TypeBox vs zod) and the same tools; ' +
      'a bare handler call; the raw MCP SDK client. How each case is measured: bench/README.md and the comment at the top of each bench file.',
  ];
  if (note) out.push('', note);
  if (smoke) out.push('', '**Smoke run: every bench ran once with tiny counts; these numbers mean nothing.**');
  out.push('', '## Claims (issues #18, #24)', '', '| measure | adkit | anchor | ratio | goal | result |', '|---|---|---|---|---|---|');
  for (const c of claims) out.push(`| ${[c.measure, c.adkit ?? '—', c.anchor ?? '—', c.ratio ?? '—', c.goal ?? '—', c.status === 'missed' ? '**missed**' : result(c)].map(cell).join(' | ')} |`);

  const missed = claims.filter((c) => c.status === 'missed');
  if (missed.length > 0) {
    out.push('', '## Where the time goes (goals missed)', '');
    out.push('For each missed goal, a CPU profile of adkit alone doing the measured work (V8\'s sampling profiler, what `node --cpu-prof` records, 250 µs interval; self time by package, then the top functions).');
    const shown = new Map();
    for (const c of missed) {
      out.push('', `### ${c.measure}`, '');
      if (c.guarantees) out.push(`**What the guarantees cost.** ${c.guarantees}`, '');
      if (c.profileSummary && shown.has(c.profileSummary)) out.push(`The same workload and profile as for "${shown.get(c.profileSummary)}" above.`);
      else if (c.profileSummary) {
        shown.set(c.profileSummary, c.measure);
        out.push(...(c.profileNote ? [c.profileNote, ''] : []), profileMarkdown(c.profileSummary));
      } else out.push(c.profileNote ?? (smoke ? 'Not profiled: a smoke run profiles the first missed goal only.' : 'No profile.'));
    }
  }

  out.push('', '## Every row', '', '| bench | case | median | spread | ratio | note |', '|---|---|---:|---|---:|---|');
  rows.forEach((row, i) => out.push(`| ${[row.bench, row.case, value(row), formatSpread(row.samples) || '—', ratio(row, i, rows) || '', row.note ?? ''].map(cell).join(' | ')} |`));
  if (failures.length > 0) {
    out.push('', '## Benches that failed', '');
    for (const { bench, error } of failures) out.push(`- \`${bench}\`: ${cell(String(error.message ?? error).split('\n')[0])}`);
  }
  out.push('', '## Run', '', `Seconds per bench: ${durations.map(({ bench, seconds }) => `${bench} ${seconds.toFixed(0)}`).join(', ')}; total ${durations.reduce((t, d) => t + d.seconds, 0).toFixed(0)} s.`, '');
  return out.join('\n');
}

const QUOTE_START = '<!-- quoted from bench/RESULTS.md by `pnpm bench`: do not edit by hand -->';
const QUOTE_END = '<!-- end of the quote from bench/RESULTS.md -->';

/** What the root README quotes from RESULTS.md: the "Measured …" paragraph and the claims table. */
export function speedQuote(results) {
  const lines = results.split('\n');
  const measured = lines.find((line) => line.startsWith('Measured '));
  const start = lines.indexOf('| measure | adkit | anchor | ratio | goal | result |');
  if (!measured || start < 0) throw new Error('RESULTS.md has no "Measured …" line or no claims table');
  let end = start;
  while (end < lines.length && lines[end].startsWith('|')) end++;
  return [QUOTE_START, measured, '', ...lines.slice(start, end), QUOTE_END].join('\n');
}

/** `readme` with its quote of RESULTS.md (between the markers) replaced by `speedQuote(results)`. */
export function withSpeedQuote(readme, results) {
  const from = readme.indexOf(QUOTE_START);
  const to = readme.indexOf(QUOTE_END);
  if (from < 0 || to < from) throw new Error(`README.md has no quote markers: add ${QUOTE_START} and ${QUOTE_END} to its Speed section`);
  return readme.slice(0, from) + speedQuote(results) + readme.slice(to + QUOTE_END.length);
}

/** The quote of RESULTS.md the README holds now, markers included. */
export function currentSpeedQuote(readme) {
  const from = readme.indexOf(QUOTE_START);
  const to = readme.indexOf(QUOTE_END);
  return from < 0 || to < from ? undefined : readme.slice(from, to + QUOTE_END.length);
}
