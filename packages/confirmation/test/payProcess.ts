// Runs test/fixtures/payProcess.mjs, one turn of a payment agent on a SQLite session file, as a
// real child process (the crash and repeated-delivery tests), and reads the events it prints.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./fixtures/payProcess.mjs', import.meta.url));

export interface Line {
  author: string;
  errorCode?: string;
  errorMessage?: string;
  started?: string[];
  responses: { id: string; name: string; response: Record<string, unknown> }[];
  text?: string;
}

/** Runs one process to its end, or until `killWhen` holds, when it is killed with SIGKILL. */
export function runProcess(args: string[], killWhen?: () => boolean): Promise<{ lines: Line[]; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const poll = killWhen
      ? setInterval(() => {
          if (killWhen()) child.kill('SIGKILL');
        }, 20)
      : undefined;
    const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearInterval(poll);
      clearTimeout(deadline);
      if (code !== 0 && signal === null) reject(new Error(`child exited with ${code}: ${stderr}`));
      else resolve({ lines: stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line), signal, stderr });
    });
  });
}

