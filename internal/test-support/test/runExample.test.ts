import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runExample } from '../src/runExample.js';

const printer = new URL('./fixtures/printer.ts', import.meta.url);
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'adkit-test-support-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runExample', () => {
  it('captures stdout and stderr as Node formats them, and the exit code', async () => {
    expect(await runExample(printer, { env: { TEST_SUPPORT_KEY: undefined } })).toEqual({
      stdout: ['hello { n: 1 }', 'info line'],
      stderr: ['set TEST_SUPPORT_KEY'],
      exitCode: 1,
    });
  });

  it('sets the env for the run only, and runs the module afresh each time', async () => {
    const run = await runExample(printer, { env: { TEST_SUPPORT_KEY: 'k1' } });
    expect(run).toEqual({ stdout: ['hello { n: 1 }', 'info line'], stderr: ['key k1'], exitCode: 0 });
    expect((await runExample(printer.pathname, { env: { TEST_SUPPORT_KEY: 'k2' } })).stderr).toEqual(['key k2']);
    expect('TEST_SUPPORT_KEY' in process.env).toBe(false);
  });

  it('runs in cwd, then restores the working directory', async () => {
    const cwd = process.cwd();
    const appender = new URL('./fixtures/appender.ts', import.meta.url);
    expect((await runExample(appender, { cwd: dir })).stdout).toEqual([dir]);
    await runExample(appender, { cwd: dir });
    expect(readFileSync(join(dir, 'runs.txt'), 'utf8')).toBe('ran\nran\n');
    expect(process.cwd()).toBe(cwd);
  });

  it('rethrows what the example throws, after restoring env, cwd, console and exit code', async () => {
    const cwd = process.cwd();
    const log = console.log;
    process.exitCode = undefined;
    await expect(runExample(new URL('./fixtures/thrower.ts', import.meta.url), { cwd: dir, env: { TEST_SUPPORT_KEY: 'x' } })).rejects.toThrow(
      'example failed',
    );
    expect(process.cwd()).toBe(cwd);
    expect(process.env.TEST_SUPPORT_KEY).toBeUndefined();
    expect(console.log).toBe(log);
    expect(process.exitCode).toBeUndefined();
  });

  it('fails on a module that does not exist', async () => {
    await expect(runExample(join(dir, 'missing.ts'))).rejects.toThrow(/missing\.ts/);
  });
});
