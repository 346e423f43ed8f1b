// `npm run demo -- --web`: the built demo serves its assistant through @adkit/dev-ui on
// 127.0.0.1, prints the URL, answers a chat over HTTP, and stops on SIGINT.
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
beforeAll(() => void execFileSync(join(root, 'node_modules/.bin/tsc'), ['-b', 'apps/demo'], { cwd: root, stdio: 'pipe' }), 180_000);

it('serves the demo assistant on a loopback page and stops on SIGINT', async () => {
  const env = { ...process.env, PORT: '0', OPENAI_API_KEY: '', GEMINI_API_KEY: '', GOOGLE_API_KEY: '' };
  const child = spawn(process.execPath, [main, '--web'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${stdout}`)), 30_000);
    child.stdout.on('data', () => {
      const found = /adkit dev UI on (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(stdout);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${stdout}`)));
  });
  expect(stdout).toMatch(/offline/i);
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toMatch(/<html/i);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGINT');
  expect(await exited).toBe(0);
}, 60_000);
