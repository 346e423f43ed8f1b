import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { vi } from 'vitest';

/** What an example did when run by `runExample`. */
export interface ExampleRun {
  /** Each `console.log` / `console.info` call, formatted as Node prints it (without the newline). */
  stdout: string[];
  /** Each `console.error` / `console.warn` call, formatted the same way. */
  stderr: string[];
  /** The `process.exitCode` the example left (0 when it set none), what `node` would exit with. */
  exitCode: number;
}

/** Options of `runExample`. */
export interface RunExampleOptions {
  /**
   * Environment variables set while the example runs (`undefined` removes one), e.g. an SDK's
   * API key and base URL pointing at the replay server. Restored afterwards.
   */
  env?: Record<string, string | undefined>;
  /** The working directory while it runs, so relative paths land there. Restored afterwards. */
  cwd?: string;
}

/**
 * Runs an example's module in-process as `node dist/main.js` would run its build, and returns
 * what it printed. Each call evaluates the module afresh (`vi.resetModules()`), so one test file
 * may run an example several times. The environment, working directory, console and
 * `process.exitCode` are restored afterwards, also when the example throws (the error is
 * rethrown). `cwd` needs vitest's default `forks` pool: worker threads cannot change directory.
 *
 * @param module the module to run, as a file URL or an absolute path (a `.ts` source is fine)
 */
export async function runExample(module: URL | string, options: RunExampleOptions = {}): Promise<ExampleRun> {
  const file = module instanceof URL ? fileURLToPath(module) : module;
  const run: ExampleRun = { stdout: [], stderr: [], exitCode: 0 };
  const savedEnv = Object.keys(options.env ?? {}).map((name) => [name, process.env[name]] as const);
  const savedCwd = process.cwd();
  const savedExitCode = process.exitCode;
  const capture = (lines: string[]) => (...args: unknown[]) => void lines.push(format(...args));
  const spies = [
    vi.spyOn(console, 'log').mockImplementation(capture(run.stdout)),
    vi.spyOn(console, 'info').mockImplementation(capture(run.stdout)),
    vi.spyOn(console, 'error').mockImplementation(capture(run.stderr)),
    vi.spyOn(console, 'warn').mockImplementation(capture(run.stderr)),
  ];
  try {
    for (const [name, value] of Object.entries(options.env ?? {})) setEnv(name, value);
    if (options.cwd !== undefined) process.chdir(options.cwd);
    process.exitCode = undefined;
    vi.resetModules();
    await import(/* @vite-ignore */ file);
    run.exitCode = Number(process.exitCode ?? 0);
  } finally {
    process.exitCode = savedExitCode;
    process.chdir(savedCwd);
    for (const [name, value] of savedEnv) setEnv(name, value);
    for (const spy of spies) spy.mockRestore();
  }
  return run;
}

function setEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
