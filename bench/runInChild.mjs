// One bench in a process of its own (benchChild.mjs). In one process, the heap and the JIT state
// that the benches before it left behind made the later ones slower: a runner turn took 38 µs in a
// full run against 29–30 µs alone.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const child = fileURLToPath(new URL('./benchChild.mjs', import.meta.url));

/** The longest a bench may run; the slowest (sessions, with Postgres) takes about two minutes. */
const TIMEOUT_MS = 30 * 60_000;

/**
 * Runs the bench at `path` (its `run()`) in a child Node process, with `--expose-gc`, its output
 * on this process's, and returns `{rows, profiles}` or `{error: {message, stack}}`: the bench's
 * own error, or why its process ended without results.
 */
export function runInChild(path, { timeoutMs = TIMEOUT_MS } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'adkit-bench-'));
  try {
    const out = join(dir, 'rows.json');
    const run = spawnSync(process.execPath, ['--expose-gc', child, path, out], {
      cwd: dirname(path),
      env: process.env,
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    // A bench that wrote its rows and then hung is stopped too: its rows may be fine, but a run
    // that waits for it is not.
    const timedOut = run.error?.code === 'ETIMEDOUT';
    if (existsSync(out) && !timedOut) return JSON.parse(readFileSync(out, 'utf8'));
    const how = timedOut
      ? `it ran past ${timeoutMs / 1e3} s and was stopped`
      : run.error
        ? run.error.message
        : run.signal
          ? `killed by ${run.signal}`
          : `exit code ${run.status}`;
    const message = `the bench's process ended ${timedOut ? 'before it finished' : 'without results'} (${how})`;
    return { error: { message, stack: message } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
