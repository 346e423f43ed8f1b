// A separate Node process that appends to one session of a SQLite file with SqliteSessionService,
// loaded from its TypeScript source (no build step; the hooks are @adkit/artifact-tools' test ones).
// Usage: node appendWorker.mjs <path> <sessionId> <writer> <count>. Loads the session, prints
// "ready", waits for a line on stdin (so that several writers start at the same moment), then
// appends <count> events "<writer>-<i>" one by one: each append goes through the session as
// loaded, and on SESSION_CONFLICT the worker reloads the session and retries that event (when
// <count> is 1 it does not retry, and reports the conflict instead). Prints one JSON line:
// {conflicts, error?}.
import { once } from 'node:events';
import { register } from 'node:module';

register('../../../artifact-tools/test/support/typescriptHooks.mjs', import.meta.url);
const [path, sessionId, writer, count] = process.argv.slice(2);
const { SqliteSessionService } = await import('../../src/sqliteSessionService.ts');
const { createEvent } = await import('@adkit/flow');
const service = new SqliteSessionService({ path, busyTimeoutMs: 10_000 });
const key = { appName: 'shop', userId: 'ada', sessionId };
let session = await service.getSession(key);

process.stdout.write('ready\n');
await once(process.stdin, 'data');
let conflicts = 0;
let error;
for (let i = 0; i < Number(count); i++) {
  const event = createEvent({ id: `${writer}-${i}`, invocationId: writer, author: 'user', actions: { stateDelta: { [`last-${writer}`]: i, 'app:last': `${writer}-${i}` } } });
  for (;;) {
    try {
      await service.appendEvent(session, event);
      break;
    } catch (thrown) {
      if (thrown?.code !== 'SESSION_CONFLICT') throw thrown;
      conflicts++;
      if (Number(count) === 1) {
        error = { code: thrown.code, message: thrown.message };
        break;
      }
      session = await service.getSession(key);
    }
  }
}
await service.close();
process.stdout.write(`${JSON.stringify({ conflicts, error })}\n`);
process.exit(0);
