import { spawn } from 'node:child_process';
import { CommandError } from './errors.js';

/** Options of `runCommand`. */
export interface RunCommandOptions {
  cwd: string;
  /** Variables to set (`undefined` removes one) over the current environment. */
  env?: Record<string, string | undefined>;
  /** Kill the command (and its children) after this long; default 180 s. */
  timeoutMs?: number;
}

/** What a command printed, and how long it took. */
export interface CommandOutput {
  stdout: string;
  stderr: string;
  ms: number;
}

const TAIL_LINES = 60;

/**
 * Runs a command without a shell and resolves to what it printed; rejects with a `CommandError`
 * on a non-zero exit, a signal or the timeout. The command runs in its own process group, so the
 * timeout also kills what it started (npm's children, a registry). The event loop stays free
 * while it runs, so a server in this process (the replay server) can answer it.
 */
export function runCommand(command: string, args: readonly string[], options: RunCommandOptions): Promise<CommandOutput> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const timeoutMs = options.timeoutMs ?? 180_000;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new CommandError(`${describe(command, args, options.cwd)} could not start: ${error.message}`, { exitCode: null, stdout, stderr }));
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      const ms = Date.now() - started;
      if (exitCode === 0 && !timedOut) return resolve({ stdout, stderr, ms });
      const why = timedOut ? `timed out after ${timeoutMs} ms` : signal ? `was killed by ${signal}` : `exited with ${exitCode}`;
      const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-TAIL_LINES).join('\n');
      reject(new CommandError(`${describe(command, args, options.cwd)} ${why}. Its last output:\n${tail}`, { exitCode, stdout, stderr }));
    });
  });
}

function describe(command: string, args: readonly string[], cwd: string): string {
  return `\`${[command, ...args].join(' ')}\` (in ${cwd})`;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
