// Starts runnerWorker.mjs processes (stateless runners on one Postgres schema) and talks to them:
// send a command, get its answer (matched by id).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** One runner process. */
export interface RunnerWorker {
  name: string;
  /** Sends a command (see runnerWorker.mjs) and resolves to its answer. */
  send<T = Record<string, unknown>>(command: Record<string, unknown>): Promise<T>;
  /** Ends the process. */
  stop(): void;
}

const script = fileURLToPath(new URL('./runnerWorker.mjs', import.meta.url));
let nextId = 0;

/** Starts one worker per name against `url`/`schema`; resolves when all are ready. */
export async function startWorkers(names: string[], url: string, schema: string): Promise<RunnerWorker[]> {
  return Promise.all(
    names.map(async (name) => {
      const child = spawn(process.execPath, [script, url, schema, name], { stdio: ['pipe', 'pipe', 'inherit'] });
      const waiting = new Map<number, (answer: unknown) => void>();
      const lines = createInterface({ input: child.stdout });
      const ready = new Promise<void>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`worker ${name} exited with ${code} before it was ready`)));
        lines.once('line', (line) => (line === 'ready' ? resolve() : reject(new Error(`worker ${name} said ${line}`))));
      });
      await ready;
      lines.on('line', (line) => {
        const answer = JSON.parse(line) as { id: number };
        waiting.get(answer.id)?.(answer);
        waiting.delete(answer.id);
      });
      return {
        name,
        send: <T>(command: Record<string, unknown>) =>
          new Promise<T>((resolve) => {
            const id = nextId++;
            waiting.set(id, resolve as (answer: unknown) => void);
            child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
          }),
        stop: () => {
          child.stdin.end();
          child.kill();
        },
      };
    }),
  );
}
