// bench/runInChild.mjs runs each bench of `pnpm bench` in a process of its own (issue #24: in one
// process, the heap earlier benches left behind slowed the later ones). Bad input tried: a bench
// that throws, a bench whose process dies without a word, a bench that leaves a timer and a
// server open (the run must not wait for them), a bench file that does not exist.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInChild } from '../runInChild.mjs';

const dir = mkdtempSync(join(tmpdir(), 'adkit-run-in-child-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bench(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

describe('runInChild', () => {
  it('returns the rows and the names of the profile workloads, from another process', () => {
    const path = bench(
      'rows.bench.mjs',
      `export async function run() { return [{ case: 'pid', ns: process.pid, gc: typeof globalThis.gc }]; }
       export const profiles = { turn: async () => {}, notAWorkload: 3 };`,
    );
    const { rows, profiles, error } = runInChild(path);
    expect(error).toBeUndefined();
    expect(rows).toEqual([{ case: 'pid', ns: expect.any(Number), gc: 'function' }]);
    expect(rows[0].ns).not.toBe(process.pid);
    expect(profiles).toEqual(['turn']);
  });

  it("reports a bench's own error with its message", () => {
    const path = bench('throws.bench.mjs', `export async function run() { throw new Error('the peer is not installed'); }`);
    expect(runInChild(path).error).toMatchObject({ message: 'the peer is not installed', stack: expect.stringContaining('throws.bench.mjs') });
  });

  it('says how a process that died without results ended', () => {
    const exits = bench('exits.bench.mjs', `export async function run() { process.exit(7); }`);
    expect(runInChild(exits).error.message).toBe("the bench's process ended without results (exit code 7)");
    const killed = bench('killed.bench.mjs', `export async function run() { process.kill(process.pid, 'SIGKILL'); await new Promise(() => {}); }`);
    expect(runInChild(killed).error.message).toBe("the bench's process ended without results (killed by SIGKILL)");
  });

  it('does not wait for what a bench left open once its rows are written', () => {
    const path = bench(
      'leaks.bench.mjs',
      `import { createServer } from 'node:net';
       export async function run() {
         setInterval(() => {}, 1000);
         await new Promise((resolve) => createServer().listen(0, '127.0.0.1', resolve));
         return [{ case: 'left open' }];
       }`,
    );
    expect(runInChild(path, { timeoutMs: 10_000 })).toEqual({ rows: [{ case: 'left open' }] });
  });

  it('stops a bench that runs past its time, and says so', () => {
    const path = bench('hangs.bench.mjs', `export async function run() { setInterval(() => {}, 1000); await new Promise(() => {}); }`);
    expect(runInChild(path, { timeoutMs: 1_000 }).error.message).toBe("the bench's process ended before it finished (it ran past 1 s and was stopped)");
  });

  it('a missing bench file is an error', () => {
    expect(runInChild(join(dir, 'missing.bench.mjs')).error.message).toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
  });
});
