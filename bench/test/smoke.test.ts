// Smoke test of `pnpm bench` (issue #18): bench/run.mjs runs every bench/*.bench.mjs once with tiny
// counts (ADKIT_BENCH_SMOKE=1) against the built packages, in a child process, and must produce a
// row for each, a line for every claim of the issue (measured, or "not measured yet" with a
// reason) and a RESULTS.md with the machine and the claims table. It must never install the peer:
// npm runs with dry-run forced, and bench/peer is the same before and after. Bad input tried: a
// machine without the peer installed (then only failures for want of the peer are allowed), a
// filter that matches no bench.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bench = fileURLToPath(new URL('../', import.meta.url));
const peerInstalled = () => existsSync(join(bench, 'peer', 'node_modules', '@google', 'adk', 'package.json'));

interface Row {
  bench: string;
  case: string;
  ns?: number;
  bytes?: number;
}
interface Claim {
  measure: string;
  status: 'met' | 'missed' | 'not measured yet';
  adkit?: string;
  anchor?: string;
  ratio?: string;
  goal?: string;
  reason?: string;
}
interface Output {
  rows: Row[];
  claims: Claim[];
  failures: { bench: string; message: string; code?: string }[];
  durations: { bench: string; seconds: number }[];
}

/** Runs bench/run.mjs in smoke mode; resolves to its exit status, output files and stdout. */
async function smokeRun() {
  const dir = mkdtempSync(join(tmpdir(), 'adkit-bench-smoke-'));
  try {
    const child = spawn(process.execPath, ['--expose-gc', 'run.mjs', '--out', join(dir, 'RESULTS.md'), '--json', join(dir, 'results.json')], {
      cwd: bench,
      env: { ...process.env, ADKIT_BENCH_SMOKE: '1', npm_config_dry_run: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const read = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '');
    return { status, stdout, stderr, markdown: read('RESULTS.md'), json: read('results.json') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The measures of issue #18's table, as the claim lines begin. */
const MEASURES = [
  'validated 5-field function-tool call, vs @google/adk',
  'validated 5-field function-tool call, vs a bare handler call',
  'one function call through a whole runner turn',
  'tool declarations per model step, 20 tools',
  'tool declarations per model step, 100 tools',
  'two ',
  'cold import of flow + function-tool, child process',
  'cold import of flow + function-tool + model-openai, child process',
  'install',
  'per-turn cost at',
  'warm MCP tool call over stdio',
  'list 1,000 skills, cold',
  'list 1,000 skills, warm',
];

describe('pnpm bench, smoke run', () => {
  const peerBefore = peerInstalled();
  const peerFiles = peerBefore ? readdirSync(join(bench, 'peer', 'node_modules')).sort() : [];
  const built = existsSync(join(bench, '..', 'packages', 'flow', 'dist', 'index.js'));
  let run: Awaited<ReturnType<typeof smokeRun>> | undefined;
  let output: Output | undefined;
  beforeAll(async () => {
    if (!built) return;
    run = await smokeRun();
    if (run.json) output = JSON.parse(run.json) as Output;
  }, 300_000);

  afterAll(() => {
    // The smoke run never installs the peer, nor changes an installed one.
    expect(peerInstalled()).toBe(peerBefore);
    if (peerBefore) expect(readdirSync(join(bench, 'peer', 'node_modules')).sort()).toEqual(peerFiles);
  });

  it('runs against the built packages (npm test builds first)', () => {
    expect(built, 'packages/flow/dist is missing: run `pnpm build` first').toBe(true);
    expect(output, `run.mjs wrote no JSON:\n${run?.stdout}\n${run?.stderr}`).toBeDefined();
    // The benches that measure adkit against its peer did return rows.
    for (const file of ['functionTool', 'peerAdk', 'toolDeclarations', 'parallelTools', 'concurrentSessions', 'coldImportPeer', 'installSize'])
      expect(output!.rows.some((row) => row.bench === file) || output!.failures.some((f) => f.bench === file), `${file} returned no rows`).toBe(true);
  });

  it('every bench ran, and every row it returned has a real number', () => {
    const files = readdirSync(bench)
      .filter((f) => f.endsWith('.bench.mjs'))
      .map((f) => f.replace('.bench.mjs', ''))
      .sort();
    expect(output!.durations.map((d) => d.bench)).toEqual(files);
    const allowed = output!.failures.filter((f) => !peerBefore && (f.code === 'PEER_NOT_INSTALLED' || /bench\/peer|@google\/adk/.test(f.message)));
    expect(output!.failures, run!.stdout).toEqual(allowed);
    expect(run!.status).toBe(output!.failures.length === 0 ? 0 : 1);
    const failed = new Set(output!.failures.map((f) => f.bench));
    for (const file of files.filter((f) => !failed.has(f))) {
      // A bench may return no rows when what it needs is missing (a Postgres server, say).
      for (const row of output!.rows.filter((r) => r.bench === file)) {
        const value = row.ns ?? row.bytes;
        expect(Number.isFinite(value), `${file}: "${row.case}" has no number`).toBe(true);
        expect(row.case.length).toBeGreaterThan(0);
      }
    }
  });

  it("gives every claim of the issue a line: measured with its anchor, ratio and goal, or not measured with the reason", () => {
    const claims = output!.claims;
    for (const measure of MEASURES) expect(claims.some((c) => c.measure.startsWith(measure)), `no line for "${measure}"`).toBe(true);
    for (const claim of claims) {
      if (claim.status === 'not measured yet') expect(claim.reason, claim.measure).toMatch(/\S/);
      else {
        expect(['met', 'missed']).toContain(claim.status);
        for (const text of [claim.adkit, claim.anchor, claim.ratio, claim.goal]) expect(text, claim.measure).toMatch(/\S/);
        expect(claim.adkit).not.toMatch(/NaN|undefined|Infinity/);
      }
    }
    // Only what a smoke run cannot do, or a missing peer, leaves a claim unmeasured.
    for (const claim of claims.filter((c) => c.status === 'not measured yet'))
      expect(claim.reason).toMatch(/smoke run|peer|@google\/adk/);
  });

  it('writes RESULTS.md with the machine, the date, the Node version and the claims table', () => {
    const markdown = run!.markdown;
    expect(markdown).toMatch(/^# adkit benchmark results\n/);
    expect(markdown).toContain(`Node ${process.version}`);
    expect(markdown).toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(markdown).toMatch(/Load average \(1 min\) at the start [\d.]+, at the end [\d.]+/);
    expect(markdown).toContain('| measure | adkit | anchor | ratio | goal | result |');
    expect(markdown).toContain('**Smoke run: every bench ran once with tiny counts; these numbers mean nothing.**');
    const missed = output!.claims.filter((c) => c.status === 'missed');
    if (missed.length > 0) expect(markdown).toMatch(/## Where the time goes \(goals missed\)[\s\S]*\| self time \| share \| function \| where \|/);
  });

  it('a filter that matches nothing is an error, not an empty table', () => {
    const child = spawnSync(process.execPath, ['run.mjs', 'no-such-bench'], { cwd: bench, encoding: 'utf8', env: { ...process.env, ADKIT_BENCH_SMOKE: '1' } });
    expect(child.status).not.toBe(0);
    expect(child.stderr).toContain('No benchmark matches "no-such-bench"');
  });
});
