import { describe, expect, it, onTestFinished } from 'vitest';
import { runSessionServiceSuite } from '../../flow/test/support/sessionServiceSuite.js';
import { SqliteSessionService } from '../src/sqliteSessionService.js';
import { tempDir } from './support/tempDir.js';

// The shared contract, on a real file per test (WAL, removed afterwards) and in memory.
runSessionServiceSuite('SqliteSessionService on a file', async () => {
  const temp = tempDir();
  const service = new SqliteSessionService({ path: temp.file('sessions.db') });
  return {
    service,
    close: async () => {
      await service.close();
      temp.remove();
    },
  };
});

runSessionServiceSuite('SqliteSessionService in :memory:', async () => {
  const service = new SqliteSessionService({ path: ':memory:' });
  return { service, close: () => service.close() };
});

describe('SqliteSessionService with :memory:', () => {
  it('keeps each in-memory service private', async () => {
    const a = new SqliteSessionService({ path: ':memory:' });
    const b = new SqliteSessionService({ path: ':memory:' });
    onTestFinished(() => Promise.all([a.close(), b.close()]).then(() => undefined));
    await a.createSession({ appName: 'app', userId: 'u', sessionId: 's', state: { 'app:x': 1 } });
    expect(await b.getSession({ appName: 'app', userId: 'u', sessionId: 's' })).toBeUndefined();
    expect((await b.createSession({ appName: 'app', userId: 'u' })).state).toEqual({});
  });
});
