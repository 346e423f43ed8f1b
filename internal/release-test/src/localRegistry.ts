import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** A running local npm registry. */
export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** A throwaway npm userconfig: this registry, a fake token for publishing, no audit/fund noise. */
  readonly userconfig: string;
  /** What the registry printed so far (warnings and errors). */
  log(): string;
  /** Stops the registry (SIGTERM, then SIGKILL after 5 s). */
  close(): Promise<void>;
}

/** Options of `startLocalRegistry`. */
export interface LocalRegistryOptions {
  /** The `verdaccio` executable. */
  verdaccio: string;
  /** An empty folder for the config, storage and userconfig. */
  dir: string;
  /** Where third-party packages come from (see `upstreamRegistry()`); never written to the repo. */
  uplink: string;
  /** Name patterns served and published locally only, never proxied (e.g. `@adkit/*`). */
  localPackages: readonly string[];
}

/**
 * Starts Verdaccio on 127.0.0.1 with its storage in `dir`: packages matching `localPackages` live
 * only here (anyone may publish them), everything else is proxied from `uplink`. Resolves once the
 * registry answers `/-/ping`; rejects with its output if it exits or does not answer in 60 s.
 */
export async function startLocalRegistry(options: LocalRegistryOptions): Promise<LocalRegistry> {
  mkdirSync(options.dir, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const config = join(options.dir, 'config.yaml');
  const q = (value: string) => JSON.stringify(value);
  const local = options.localPackages.map((pattern) => `  ${q(pattern)}:\n    access: $all\n    publish: $all\n`).join('');
  writeFileSync(
    config,
    [
      `storage: ${q(join(options.dir, 'storage'))}`,
      'auth:',
      '  htpasswd:',
      `    file: ${q(join(options.dir, 'htpasswd'))}`,
      'uplinks:',
      '  upstream:',
      `    url: ${q(options.uplink)}`,
      '    timeout: 60s',
      'packages:',
      local + '  "**":\n    access: $all\n    proxy: upstream',
      'web:',
      '  enable: false',
      'max_body_size: 100mb',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const userconfig = join(options.dir, 'npmrc');
  writeFileSync(
    userconfig,
    [`registry=${url}`, `//127.0.0.1:${port}/:_authToken=release-test-fake-token`, 'audit=false', 'fund=false', 'update-notifier=false', ''].join('\n'),
  );

  const child = spawn(options.verdaccio, ['--config', config, '--listen', `127.0.0.1:${port}`], {
    cwd: options.dir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const append = (chunk: string) => {
    output = (output + chunk).slice(-200_000);
  };
  child.stdout.setEncoding('utf8').on('data', append);
  child.stderr.setEncoding('utf8').on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let exitedEarly = false;
  void exited.then(() => (exitedEarly = true));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    signalGroup(child.pid, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exitedEarly) throw new Error(`Verdaccio exited before answering on ${url}. Its output:\n${output}`);
    if (await answers(`${url}-/ping`)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Verdaccio did not answer ${url}-/ping within 60 s. Its output:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, userconfig, log: () => output, close: stop };
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
