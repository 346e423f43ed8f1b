import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * Another writer, on its own thread and connection: takes the file's write lock, holds it for
 * `holdMs` while this thread is blocked on it, then commits. Resolves once the lock is held;
 * `released` resolves when the worker has let go and exited.
 */
export async function holdWriteLock(path: string, holdMs: number): Promise<{ released: Promise<void> }> {
  const worker = new Worker(
    `
    const { workerData, parentPort } = require('node:worker_threads');
    const Database = require(workerData.betterSqlite3);
    const db = new Database(workerData.path);
    db.exec('BEGIN IMMEDIATE');
    parentPort.postMessage('locked');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
    db.exec('COMMIT');
    db.close();
    `,
    { eval: true, workerData: { betterSqlite3, path, holdMs } },
  );
  const released = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', () => resolve());
  });
  await Promise.race([new Promise((resolve) => worker.once('message', resolve)), released]);
  return { released };
}
