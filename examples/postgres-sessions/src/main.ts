import { createEvent, createUserContent } from '@adkit/flow';
import { PostgresSessionService } from '@adkit/session-postgres';

// Every runner process points at the same database; tables are created on first use.
const sessions = new PostgresSessionService({ connectionString: process.env.DATABASE_URL ?? 'postgres://localhost/adkit' });
const key = { appName: 'shop', userId: 'ada', sessionId: 'order-42' };
const here = await sessions.createSession({ ...key, state: { 'user:tier': 'gold' } });
const there = (await sessions.getSession(key))!; // the same session, loaded by another process

await sessions.appendEvent(here, createEvent({ invocationId: 'inv-1', author: 'user', content: createUserContent('Where is my order?') }));
// `there` is now stale: appending through it would interleave two histories, so it is refused.
await sessions.appendEvent(there, createEvent({ invocationId: 'inv-2', author: 'user' })).catch((error: { code: string }) => {
  console.log(error.code); // SESSION_CONFLICT
});
const fresh = (await sessions.getSession(key))!; // reload, then retry the turn
console.log(fresh.events.length, fresh.state); // 1 { 'user:tier': 'gold' }
await sessions.close();
