// #23 point 14: the database file under a running service. Deleted (with its WAL) or replaced by
// another file, the service refuses every later call with a SessionError naming what happened,
// instead of writing to the unlinked file and losing everything silently. A corrupted file is
// always a clear error: six copies, each with a different page overwritten, either fail to open
// with "corrupted" or read back every session exactly; never "session not found".
import { copyFileSync, openSync, renameSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createEvent, isAdkitError, type Session } from '@adkit/flow';
import { SqliteSessionService } from '../src/sqliteSessionService.js';
import { tempDir } from './support/tempDir.js';

function scratch() {
  const temp = tempDir();
  const services: SqliteSessionService[] = [];
  onTestFinished(async () => {
    for (const service of services) await service.close();
    temp.remove();
  });
  const open = (path: string) => {
    const service = new SqliteSessionService({ path });
    services.push(service);
    return service;
  };
  return { file: temp.file, open };
}

const key = (sessionId: string) => ({ appName: 'app', userId: 'u', sessionId });
const event = (text: string) => createEvent({ invocationId: 'i', author: 'user', content: { role: 'user', parts: [{ text }] } });

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    expect(isAdkitError(error) && error.code).toBe('SESSION_ERROR');
    return (error as Error).message;
  }
  throw new Error('expected a SessionError');
}

describe('#23 point 14: the database file deleted or replaced under a running service', () => {
  it('deleted (with -wal and -shm): every later call is a SessionError saying so; nothing is written to the lost file', async () => {
    const { file, open } = scratch();
    const path = file('sessions.db');
    const service = open(path);
    const session = await service.createSession({ ...key('s1'), appName: 'app' });
    await service.appendEvent(session, event('before'));
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });

    const message = await refusal(service.appendEvent(session, event('after')));
    expect(message).toBe(
      `SqliteSessionService.appendEvent refused: the database file "${path}" was deleted while the service was running, so what it wrote would be lost. ` +
        'Nothing was written. Close this service, restore the file, and create a new SqliteSessionService({ path }).',
    );
    expect(await refusal(service.getSession(key('s1')))).toContain('was deleted while the service was running');
    expect(await refusal(service.createSession(key('s2')))).toContain('was deleted');
    expect(await refusal(service.listSessions({ appName: 'app' }))).toContain('was deleted');
    // The session object was not advanced by the refused append.
    expect(session.events.map((e) => e.content?.parts?.[0]?.text)).toEqual(['before']);
  });

  it('replaced by another database (renamed over it): every later call is refused', async () => {
    const { file, open } = scratch();
    const path = file('sessions.db');
    const service = open(path);
    const session: Session = await service.createSession(key('s1'));
    const other = open(file('other.db'));
    await other.createSession(key('elsewhere'));
    await other.close();
    renameSync(file('other.db'), path);

    expect(await refusal(service.appendEvent(session, event('after')))).toContain(`the database file "${path}" was replaced by another file while the service was running`);
    expect(await refusal(service.getSession(key('s1')))).toContain('was replaced by another file');
  });

  it('a service on an untouched file keeps working (the check costs one stat, no false alarm after many writes)', async () => {
    const { file, open } = scratch();
    const service = open(file('sessions.db'));
    let session = await service.createSession(key('s1'));
    for (let i = 0; i < 50; i++) session = (await service.appendEvent(session, event(`e${i}`)), session);
    const loaded = await service.getSession(key('s1'));
    expect(loaded!.events).toHaveLength(50);
  });
});

describe('#23 point 14: a corrupted file is always a clear error', () => {
  it('six copies, each with another page overwritten: "corrupted" at open, or every session exactly as written', async () => {
    const { file, open } = scratch();
    const original = file('original.db');
    const writer = open(original);
    const written = new Map<string, string[]>();
    for (let s = 0; s < 40; s++) {
      const id = `session-${s}`;
      const session = await writer.createSession({ ...key(id), state: { n: s } });
      const texts = Array.from({ length: 5 }, (_, i) => `${id} event ${i} ${'x'.repeat(200)}`);
      for (const text of texts) await writer.appendEvent(session, event(text));
      written.set(id, texts);
    }
    await writer.close();
    const pageSize = 4096;
    const pages = Math.floor(statSync(original).size / pageSize);
    expect(pages).toBeGreaterThan(12);

    const outcomes: string[] = [];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed / 0x7fffffff);
    for (let copy = 0; copy < 6; copy++) {
      const path = file(`copy-${copy}.db`);
      copyFileSync(original, path);
      // Spread over the file: page 2 (the first table pages) to the last.
      const page = 1 + Math.floor(((copy + random()) / 6) * (pages - 1));
      const garbage = Buffer.from(Array.from({ length: pageSize }, () => Math.floor(random() * 256)));
      const fd = openSync(path, 'r+');
      writeSync(fd, garbage, 0, pageSize, page * pageSize);
      closeSync(fd);

      let service: SqliteSessionService;
      try {
        service = open(path);
      } catch (error) {
        expect(isAdkitError(error) && error.code).toBe('SESSION_ERROR');
        expect((error as Error).message).toMatch(/^The session database ".*copy-\d\.db" is corrupted \(.+\); no session can be trusted from it\./);
        outcomes.push('refused at open');
        continue;
      }
      for (const [id, texts] of written) {
        const loaded = await service.getSession(key(id));
        expect(loaded?.events.map((e) => e.content?.parts?.[0]?.text)).toEqual(texts);
        expect(loaded!.state.n).toBe(Number(id.split('-')[1]));
      }
      outcomes.push('intact');
    }
    expect(outcomes).toHaveLength(6);
    expect(outcomes).toContain('refused at open');
  });
});
