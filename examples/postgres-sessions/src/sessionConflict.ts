import { createEvent, createUserContent } from '@adkit/flow';
import { PostgresSessionService } from '@adkit/session-postgres';

// Every runner process points at the same database (DATABASE_URL); tables are created on first use.
const sessions = new PostgresSessionService({ connectionString: process.env.DATABASE_URL });
const key = { appName: 'shop', userId: 'ada', sessionId: 'order-42' };
await sessions.deleteSession(key); // start from a new order-42 on every run
const here = await sessions.createSession({ ...key, state: { 'user:tier': 'gold' } });
const there = (await sessions.getSession(key))!; // the same session, as a second runner loads it

await sessions.appendEvent(here, createEvent({ invocationId: 'inv-1', author: 'user', content: createUserContent('Where is my order?') }));
// `there` is now stale: appending through it would interleave two histories, so it is refused.
await sessions.appendEvent(there, createEvent({ invocationId: 'inv-2', author: 'user' })).catch((error: { code: string }) => {
  console.log(error.code); // SESSION_CONFLICT
});
const fresh = (await sessions.getSession(key))!; // reload, then retry the turn
console.log(fresh.events.length, fresh.state); // 1 { 'user:tier': 'gold' }
await sessions.close();
