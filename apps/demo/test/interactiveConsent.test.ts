// `npm run demo -- --interactive` with the calendar behind OAuth (#25), the built demo in a child
// process: the chat prints the consent link and asks for the address the browser comes back to.
// Pasted (after a line that is not that address), it resumes the call; `/consent` signs in for
// the user instead; `l` leaves it for later. No code or token reaches stdout. SIGINT while the
// chat waits for the URL ends it cleanly (provider and servers stopped, exit code 0).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentAs } from '../src/localProvider.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'adkit-demo-consent-'));
beforeAll(() => void execFileSync(join(root, 'node_modules/.bin/tsc'), ['-b', 'apps/demo'], { cwd: root, stdio: 'pipe' }), 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LINK = /🔑 sign in to let authorize_calendar reach your account: (\S+)/;

/** The chat as a user drives it: `answer` sees all output so far and returns the next lines to type, or undefined to wait. */
function chat(answer: (stdout: string, step: number) => Promise<string[] | 'interrupt' | undefined>): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, '--interactive'], { env: { PATH: process.env.PATH ?? '', HOME: dir }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let step = 0;
    let busy = false;
    const next = async () => {
      if (busy) return;
      busy = true;
      try {
        const lines = await answer(stdout, step);
        if (lines === 'interrupt') {
          step++;
          child.kill('SIGINT');
        } else if (lines) {
          step++;
          child.stdin.write(lines.map((line) => `${line}\n`).join(''));
        }
      } catch (error) {
        child.kill('SIGKILL');
        reject(error);
      } finally {
        busy = false;
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      void next();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const deadline = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(deadline);
      resolve({ stdout, stderr, code });
    });
  });
}

const waitsForUrl = (stdout: string) => stdout.trimEnd().endsWith('redirect URL, /consent or [l]ater:');

describe.concurrent('the chat asks for consent', { timeout: 60_000 }, () => {
  it('AU-4: prints the link; a line that is not the callback is explained; the pasted callback URL resumes the call; no code printed', async () => {
    let callback = '';
    const { stdout, stderr, code } = await chat(async (out, step) => {
      if (step === 0 && out.includes('(session chat-1)')) return ['show my calendar'];
      if (step === 1 && waitsForUrl(out)) return ['https://example.test/not-the-callback?code=x'];
      if (step === 2 && out.includes('is not the address the provider sends you back to') && waitsForUrl(out)) {
        const link = new URL(LINK.exec(out)![1]!);
        callback = await consentAs('you', link.href, link.searchParams.get('redirect_uri')!);
        return [callback];
      }
      if (step === 3 && out.includes('assistant: The calendar MCP server')) return ['/quit'];
      return undefined;
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('assistant → authorize_calendar({})');
    expect(stdout).toMatch(LINK);
    expect(stdout).toContain("  list_events ← {\"output\":\"you's calendar today: 09:00 stand-up; 12:30 lunch with Sam; 16:00 train to the airport\"}");
    // The code shows once: the echo of the line the user pasted (stdin is piped); the chat never prints it.
    const authCode = new URL(callback).searchParams.get('code')!;
    expect(stdout.split(authCode).length - 1).toBe(1);
  });

  it('/consent signs in for the user; l leaves it for later and /pending asks again; SIGINT at the URL prompt exits cleanly', async () => {
    const first = await chat(async (out, step) => {
      if (step === 0 && out.includes('(session chat-1)')) return ['show my calendar'];
      if (step === 1 && waitsForUrl(out)) return ['l'];
      if (step === 2 && out.includes('(authorize_calendar waits for you to sign in: type /pending to answer it)')) return ['/pending'];
      if (step === 3 && out.includes('(waiting: authorize_calendar (sign in))') && waitsForUrl(out)) return ['/consent'];
      if (step === 4 && out.includes('assistant: The calendar MCP server')) return ['show my calendar'];
      if (step === 5 && out.split('assistant: The calendar MCP server').length === 3) return ['/quit'];
      return undefined;
    });
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
    expect(first.stdout).toContain('(signed in as "you" on the demo\'s provider and consented)');
    // Signed in: the second question needs no consent.
    expect(first.stdout.split('🔑 sign in to let').length - 1).toBe(2); // the first ask, and /pending's

    const interrupted = await chat(async (out, step) => {
      if (step === 0 && out.includes('(session chat-1)')) return ['show my calendar'];
      if (step === 1 && waitsForUrl(out)) return 'interrupt';
      return undefined;
    });
    expect({ code: interrupted.code, stderr: interrupted.stderr }).toEqual({ code: 0, stderr: '' });
    expect(interrupted.stdout).toContain('(input ended; what waits stays in the session');
  });
});
