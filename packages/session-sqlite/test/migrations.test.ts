import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isAdkitError } from '@adkit/flow';
import { MIGRATIONS, migrate, type Migration } from '../src/migrations.js';
import { SqliteSessionService } from '../src/sqliteSessionService.js';
import { tempDir } from './support/tempDir.js';

// Bad input tried: a database from a newer release, a failing migration step, a migration list
// out of order, and a file whose own tables collide with ours.

function scratchDb(fixture?: string): { path: string; raw: () => Database.Database } {
  const temp = tempDir();
  const path = temp.file('sessions.db');
  const connections: Database.Database[] = [];
  onTestFinished(() => {
    for (const db of connections) db.close();
    temp.remove();
  });
  const raw = () => {
    const db = new Database(path);
    connections.push(db);
    return db;
  };
  if (fixture) raw().exec(readFileSync(new URL(`fixtures/${fixture}`, import.meta.url), 'utf8'));
  return { path, raw };
}

const version = (db: Database.Database) => db.prepare('SELECT version FROM adkit_schema').pluck().get();
const tables = (db: Database.Database) =>
  db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all();

/** A stand-in for the next schema step, to test the upgrade path past the latest one. */
const next: Migration = {
  version: MIGRATIONS.length + 1,
  description: 'events by invocation',
  up: 'CREATE INDEX adkit_events_by_invocation ON adkit_events (app_name, user_id, session_id, json_extract(data, \'$.invocationId\'));',
};

describe('migrations', () => {
  it('brings a new file to the latest schema version', () => {
    const { path, raw } = scratchDb();
    new SqliteSessionService({ path }).close();
    const db = raw();
    expect(version(db)).toBe(MIGRATIONS.length);
    expect(tables(db)).toEqual(['adkit_app_states', 'adkit_events', 'adkit_schema', 'adkit_sessions', 'adkit_user_states', 'adkit_version_counter']);
  });

  it('runs each step once: reopening a file changes nothing', async () => {
    const { path, raw } = scratchDb();
    const first = new SqliteSessionService({ path });
    await first.createSession({ appName: 'a', userId: 'u', sessionId: 's' });
    const second = new SqliteSessionService({ path });
    expect(await second.getSession({ appName: 'a', userId: 'u', sessionId: 's' })).toBeDefined();
    await first.close();
    await second.close();
    expect(version(raw())).toBe(MIGRATIONS.length);
  });

  it('upgrades a v1 database step by step, keeping its data', async () => {
    const { path, raw } = scratchDb('schema-v1.sql');
    const db = raw();
    migrate(db, [...MIGRATIONS, next], '"test"');
    expect(version(db)).toBe(MIGRATIONS.length + 1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'adkit_events_by_invocation'").pluck().get()).toBe('adkit_events_by_invocation');
    migrate(db, [...MIGRATIONS, next], '"test"');
    expect(version(db)).toBe(MIGRATIONS.length + 1);
    expect(db.prepare('SELECT count(*) FROM adkit_events').pluck().get()).toBe(5);
    db.close();

    // This release knows only the versions up to MIGRATIONS.length: the upgraded file is "from the future".
    expect(() => new SqliteSessionService({ path })).toThrow(
      `Database "${path}" has session schema version ${MIGRATIONS.length + 1}, but this @adkit/session-sqlite knows versions up to ${MIGRATIONS.length}: it was written by a newer release. Upgrade @adkit/session-sqlite to open it.`,
    );
  });

  it('v2: versions old sessions from their events, so stale copies are refused and new writes count on', async () => {
    const { path, raw } = scratchDb('schema-v1.sql');
    const service = new SqliteSessionService({ path });
    onTestFinished(() => service.close());
    const db = raw();
    expect(version(db)).toBe(2);
    expect(db.prepare('SELECT id, version, incarnation FROM adkit_sessions ORDER BY rowid').all()).toEqual([
      { id: 'trip-1', version: 4, incarnation: 0 },
      { id: 'trip-2', version: 5, incarnation: 0 },
    ]);
    expect(db.prepare('SELECT version FROM adkit_events ORDER BY seq').pluck().all()).toEqual([1, 2, 3, 4, 5]);
    const key = { appName: 'travel', userId: 'ada', sessionId: 'trip-1' };
    const session = (await service.getSession(key))!;
    const stale = (await service.getSession(key))!;
    expect(session.version).toBe(4);
    await service.appendEvent(session, { id: 'e6', invocationId: 'i', author: 'user', timestamp: 1, actions: { stateDelta: {}, artifactDelta: {} } });
    expect(session.version).toBe(6);
    await expect(service.appendEvent(stale, { id: 'e7', invocationId: 'i', author: 'user', timestamp: 2, actions: { stateDelta: {}, artifactDelta: {} } })).rejects.toMatchObject({
      code: 'SESSION_CONFLICT',
    });
    expect((await service.getSession(key))!.events.map((e) => e.id)).toEqual(['e1', 'e2', 'e3', 'e4', 'e6']);
  });

  it('refuses a database from a newer release with a clear error, and leaves it untouched', () => {
    const { path, raw } = scratchDb('schema-v1.sql');
    raw().exec('UPDATE adkit_schema SET version = 7');
    let error: unknown;
    try {
      new SqliteSessionService({ path });
    } catch (thrown) {
      error = thrown;
    }
    expect(isAdkitError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'SESSION_ERROR',
      message: `Database "${path}" has session schema version 7, but this @adkit/session-sqlite knows versions up to ${MIGRATIONS.length}: it was written by a newer release. Upgrade @adkit/session-sqlite to open it.`,
    });
    const db = raw();
    expect(version(db)).toBe(7);
    expect(db.prepare('SELECT count(*) FROM adkit_events').pluck().get()).toBe(5);
  });

  it('a failing step rolls back the whole upgrade', () => {
    const { raw } = scratchDb('schema-v1.sql');
    const db = raw();
    const broken: Migration = { version: MIGRATIONS.length + 1, description: 'half done', up: 'CREATE TABLE adkit_extra (x TEXT); CREATE TABLE oops (' };
    expect(() => migrate(db, [...MIGRATIONS, broken], '"test.db"')).toThrow(
      `Could not migrate database "test.db" to session schema version ${MIGRATIONS.length + 1} (half done): incomplete input. Nothing was changed.`,
    );
    expect(version(db)).toBe(1);
    expect(tables(db)).not.toContain('adkit_version_counter');
    expect(tables(db)).not.toContain('adkit_extra');
  });

  it('refuses a migration list that skips or repeats a version', () => {
    const { raw } = scratchDb();
    expect(() => migrate(raw(), [MIGRATIONS[0]!, { ...next, version: 3 }], '"x"')).toThrow(
      'migration #1 has version 3; versions must run 1, 2, 3, …',
    );
  });

  it("shares a file with other tables, and leaves them alone", async () => {
    const { path, raw } = scratchDb();
    raw().exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT); INSERT INTO orders (item) VALUES ('tea')");
    const service = new SqliteSessionService({ path });
    await service.createSession({ appName: 'a', userId: 'u' });
    await service.close();
    expect(raw().prepare('SELECT item FROM orders').pluck().all()).toEqual(['tea']);
  });

  it('refuses a file whose own tables collide with ours, and changes nothing', () => {
    const { path, raw } = scratchDb();
    raw().exec('CREATE TABLE adkit_sessions (whatever TEXT)');
    expect(() => new SqliteSessionService({ path })).toThrow(
      `Could not migrate database "${path}" to session schema version 1 (sessions, events, app and user state): table adkit_sessions already exists. Nothing was changed.`,
    );
    expect(tables(raw())).toEqual(['adkit_sessions']);
  });
});
