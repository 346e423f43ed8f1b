import { createEvent, createUserContent } from '@adkit/flow';
import { SqliteSessionService } from '@adkit/session-sqlite';

const sessions = new SqliteSessionService({ path: 'sessions.db' });
const session = await sessions.createSession({ appName: 'shop', userId: 'ada', state: { 'user:tier': 'gold' } });
await sessions.appendEvent(session, createEvent({
  invocationId: 'inv-1',
  author: 'user',
  content: createUserContent('Where is my order?'),
  actions: { stateDelta: { topic: 'orders', 'temp:scratch': 'not stored' } },
}));
await sessions.close();

// Later, in a new process: everything is still there, except temp: keys.
const reopened = new SqliteSessionService({ path: 'sessions.db' });
const again = await reopened.getSession({ appName: 'shop', userId: 'ada', sessionId: session.id });
console.log(again?.state); // { topic: 'orders', 'user:tier': 'gold' }
console.log(again?.events.length); // 1
await reopened.close();
