// A throwaway PostgreSQL cluster on 127.0.0.1, for tests and benchmarks: initdb into a temporary
// directory, pg_ctl start on a free port (trust auth, unix socket in the same directory, no fsync),
// and a stop() that shuts it down and removes everything. As root (CI), initdb and pg_ctl run as
// the `postgres` user that Debian's postgresql package creates, since initdb refuses root.
// Plain JavaScript so that the benchmarks (node, no build) and vitest's globalSetup share it.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * The directory holding initdb and pg_ctl: $ADKIT_PG_BIN, else the newest Debian
 * /usr/lib/postgresql/<major>/bin, else `pg_config --bindir`, else the PATH. Undefined when none.
 */
export function findPostgresBin(env = process.env) {
  const has = (dir) => Boolean(dir) && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  if (env.ADKIT_PG_BIN) return has(env.ADKIT_PG_BIN) ? env.ADKIT_PG_BIN : undefined;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    for (const major of majors) if (has(join(debian, major, 'bin'))) return join(debian, major, 'bin');
  }
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (has(dir)) return dir;
  } catch {
    // no pg_config
  }
  return (env.PATH ?? '').split(delimiter).find(has);
}

/** A port nobody listens on right now (the OS picks it). */
async function freePort() {
  const server = createServer();
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts a throwaway cluster with the binaries in `bin`. Resolves to `{ url, stop }`: `url` is
 * `postgres://postgres@127.0.0.1:<port>/postgres`, `stop()` shuts the server down at once and
 * removes its directory (safe to call twice, and from a process 'exit' handler).
 */
export async function startCluster(bin) {
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'adkit-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool, args) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { cwd: dir, stdio: 'pipe' })
      : execFileSync(join(bin, tool), args, { cwd: dir, stdio: 'pipe' });
  const data = join(dir, 'data');
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // not running (it failed to start, or was already stopped)
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
      try {
        run('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'log'), '-w', 'start']);
        return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
      } catch (error) {
        // Another process may have taken the port between freePort() and the start: try another.
        if (attempt >= 3) throw error;
      }
    }
  } catch (error) {
    const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').slice(-2000) : '';
    stop();
    const output = [error.stderr?.toString(), log].filter(Boolean).join('\n');
    throw new Error(`Could not start a throwaway PostgreSQL cluster with ${bin}: ${error.message}${output ? `\n${output}` : ''}`);
  }
}

/** How to enable the Postgres tests, for the one line printed when they are skipped. */
export const HOW_TO_ENABLE =
  'set ADKIT_TEST_PG_URL=postgres://user@host:port/db, or install PostgreSQL (Debian: apt-get install postgresql) so a throwaway cluster can start';
