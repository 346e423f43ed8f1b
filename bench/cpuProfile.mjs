// CPU profiles for the goals adkit misses: a workload runs in a child process under V8's CPU
// profiler (profile.mjs; the same profile `node --cpu-prof` writes, limited to the workload), and
// the profile is summarised: where the busy time went, by package and by function (self time).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('../', import.meta.url));

/**
 * Profiles `profiles[workload](ms)` of bench/`file` (or, with no workload, the bench's whole run,
 * stopped after `ms`) in a child process, and resolves to its summary (see `summarizeProfile`).
 */
export function profileWorkload({ file, workload = '', ms }) {
  const dir = mkdtempSync(join(tmpdir(), 'adkit-bench-profile-'));
  try {
    const out = join(dir, 'workload.cpuprofile');
    const child = spawnSync(process.execPath, ['--expose-gc', join(here, 'profile.mjs'), join(here, file), workload, String(ms), out], {
      cwd: here,
      encoding: 'utf8',
      env: process.env,
    });
    if (child.status !== 0 || !existsSync(out)) throw new Error(`the profiled child failed (${child.status}): ${child.stderr.slice(-2_000)}`);
    return summarizeProfile(JSON.parse(readFileSync(out, 'utf8')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Self time per function and per package of a V8 CPU profile (`.cpuprofile` JSON): `{busyMs,
 * idleMs, groups: [{group, ms}], frames: [{ms, name, where, group}]}`, largest first. Idle time
 * (waiting for timers or I/O) is counted apart.
 */
export function summarizeProfile(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const us = i + 1 < timeDeltas.length ? timeDeltas[i + 1] : Math.max(0, profile.endTime - profile.startTime - timeDeltas.reduce((a, b) => a + b, 0));
    selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + us);
  }
  const frames = new Map();
  const groups = new Map();
  let busyUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    busyUs += us;
    const where = url ? `${shortPath(url)}:${lineNumber + 1}` : '';
    const key = `${functionName}|${where}`;
    const group = groupOf(functionName, url);
    const frame = frames.get(key) ?? { us: 0, name: functionName || '(anonymous)', where, group };
    frame.us += us;
    frames.set(key, frame);
    groups.set(group, (groups.get(group) ?? 0) + us);
  }
  return {
    busyMs: busyUs / 1e3,
    idleMs: idleUs / 1e3,
    groups: [...groups].map(([group, us]) => ({ group, ms: us / 1e3 })).sort((a, b) => b.ms - a.ms),
    frames: [...frames.values()].map(({ us, ...frame }) => ({ ms: us / 1e3, ...frame })).sort((a, b) => b.ms - a.ms),
  };
}

/** A file URL as a path from the repository root, with pnpm's store folders shortened. */
function shortPath(url) {
  let path = url.startsWith('file://') ? fileURLToPath(url) : url;
  if (path.startsWith(repo)) path = path.slice(repo.length);
  return path.replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, 'node_modules/');
}

/** Who owns a frame: an @adkit package, an npm package, node itself, or V8. */
function groupOf(functionName, url) {
  if (!url) return functionName.startsWith('(') ? functionName : 'V8 built-ins';
  if (url.startsWith('node:')) return 'node internals';
  const path = shortPath(url);
  const inModules = path.lastIndexOf('node_modules/');
  if (inModules >= 0) {
    const rest = path.slice(inModules + 'node_modules/'.length).split('/');
    const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    return path.startsWith('bench/peer/') ? `${name} (peer)` : name;
  }
  const workspace = /^packages\/([^/]+)\//.exec(path);
  if (workspace) return `@adkit/${workspace[1]}`;
  return path.startsWith('bench/') ? 'bench harness' : path;
}

/** A summary as Markdown: one line by package, then the top `count` functions by self time. */
export function profileMarkdown(summary, count = 12) {
  const share = (ms) => `${((100 * ms) / summary.busyMs).toFixed(1)}%`;
  const lines = [
    `Busy ${summary.busyMs.toFixed(0)} ms (idle ${summary.idleMs.toFixed(0)} ms). By package: ` +
      summary.groups
        .slice(0, 8)
        .map(({ group, ms }) => `${group} ${share(ms)}`)
        .join(', ') +
      '.',
    '',
    '| self time | share | function | where |',
    '|---:|---:|---|---|',
    ...summary.frames.slice(0, count).map((f) => `| ${f.ms.toFixed(1)} ms | ${share(f.ms)} | \`${f.name}\` | ${f.where ? `\`${f.where}\`` : f.group} |`),
  ];
  return lines.join('\n');
}
