// runCommand, which every step of the release test goes through (#16). Bad input tried: a
// command that does not exist, a failing command with a lot of output, a command (and the child
// it started) that outlives its timeout.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCommandError, runCommand } from '../src/index.js';

describe('runCommand', () => {
  it('resolves to what the command printed, with the environment given', async () => {
    const out = await runCommand('sh', ['-c', 'echo "$GREETING"; echo err >&2'], { cwd: '/', env: { GREETING: 'hello' } });
    expect(out.stdout).toBe('hello\n');
    expect(out.stderr).toBe('err\n');
  });

  it('rejects a failing command with its exit code and only the tail of its output in the message', async () => {
    const error = await runCommand('sh', ['-c', 'seq 1 500; exit 3'], { cwd: '/' }).catch((e: unknown) => e);
    expect(isCommandError(error)).toBe(true);
    if (!isCommandError(error)) return;
    expect(error.exitCode).toBe(3);
    expect(error.message).toContain('exited with 3');
    expect(error.message).toContain('\n500');
    expect(error.message).not.toContain('\n400\n');
    expect(error.stdout.split('\n')).toHaveLength(501);
  });

  it('rejects a command that cannot start', async () => {
    await expect(runCommand('adkit-no-such-command', [], { cwd: '/' })).rejects.toThrow('could not start');
  });

  it('kills the command and what it started when the time runs out', async () => {
    const started = Date.now();
    const error = await runCommand('sh', ['-c', 'sleep 30 & echo $!; wait'], { cwd: '/', timeoutMs: 300 }).catch((e: unknown) => e);
    expect(isCommandError(error) && error.message).toContain('timed out after 300 ms');
    expect(Date.now() - started).toBeLessThan(10_000);
    const child = Number(isCommandError(error) ? error.stdout.trim() : NaN);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(child)).toBe(false); // the background sleep is gone too
  });
});

/** Whether a process runs (a zombie, killed but not yet reaped by its new parent, does not). */
function alive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  const state = readFileSync(stat, 'utf8').split(') ')[1]?.[0];
  return state !== 'Z' && state !== 'X';
}
