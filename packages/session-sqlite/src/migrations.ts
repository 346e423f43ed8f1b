import type Database from 'better-sqlite3';
import { SessionError } from '@adkit/flow';

/** One step of the schema's history. Never edit a released step; append a new one. */
export interface Migration {
  /** 1, 2, 3, …: the schema version the database has after this step. */
  version: number;
  description: string;
  /** SQL run in the migration's transaction. */
  up: string;
}

/** The schema's history, oldest first. The last entry's version is the one this code writes. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'sessions, events, app and user state',
    up: `
      CREATE TABLE adkit_app_states (
        app_name TEXT NOT NULL PRIMARY KEY,
        state TEXT NOT NULL
      ) STRICT;
      CREATE TABLE adkit_user_states (
        app_name TEXT NOT NULL,
        user_id TEXT NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (app_name, user_id)
      ) STRICT;
      CREATE TABLE adkit_sessions (
        app_name TEXT NOT NULL,
        user_id TEXT NOT NULL,
        id TEXT NOT NULL,
        state TEXT NOT NULL,
        create_time REAL NOT NULL,
        update_time REAL NOT NULL,
        PRIMARY KEY (app_name, user_id, id)
      ) STRICT;
      CREATE TABLE adkit_events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        app_name TEXT NOT NULL,
        user_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        id TEXT NOT NULL,
        timestamp REAL NOT NULL,
        format INTEGER NOT NULL,
        data TEXT NOT NULL,
        FOREIGN KEY (app_name, user_id, session_id) REFERENCES adkit_sessions (app_name, user_id, id) ON DELETE CASCADE
      ) STRICT;
      CREATE INDEX adkit_events_by_session ON adkit_events (app_name, user_id, session_id, seq);
    `,
  },
  {
    version: 2,
    description: 'session versions (optimistic concurrency, loading only newer events)',
    // Every create and append takes the next number from adkit_version_counter: a session's
    // version is the number of its last write, an event's version the number of the append that
    // stored it, and `incarnation` the number of the create (tells a session from one created again
    // under a deleted one's id). Old rows: events keep their seq, sessions the seq of their last event.
    up: `
      CREATE TABLE adkit_version_counter (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        last INTEGER NOT NULL
      ) STRICT;
      INSERT INTO adkit_version_counter (id, last) VALUES (1, (SELECT coalesce(max(seq), 0) FROM adkit_events));
      ALTER TABLE adkit_sessions ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE adkit_sessions ADD COLUMN incarnation INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE adkit_events ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
      UPDATE adkit_events SET version = seq;
      UPDATE adkit_sessions SET version = coalesce(
        (SELECT max(e.seq) FROM adkit_events e
         WHERE e.app_name = adkit_sessions.app_name AND e.user_id = adkit_sessions.user_id AND e.session_id = adkit_sessions.id),
        0);
      CREATE INDEX adkit_events_by_version ON adkit_events (app_name, user_id, session_id, version);
    `,
  },
];

/**
 * Brings the database to the last version of `migrations`, in one immediate transaction (so two
 * processes opening a new file do not both migrate it). The version lives in `adkit_schema`, not
 * in `PRAGMA user_version`, so the file may hold other tables too. A database newer than the
 * code is refused; a failing step rolls everything back.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[], location: string): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration #${i} has version ${m.version}; versions must run 1, 2, 3, …`);
  });
  const latest = migrations.length;
  db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS adkit_schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL) STRICT');
    const current = (db.prepare('SELECT version FROM adkit_schema WHERE id = 1').pluck().get() as number | undefined) ?? 0;
    if (current > latest)
      throw new SessionError(
        `Database ${location} has session schema version ${current}, but this @adkit/session-sqlite knows versions up to ${latest}: it was written by a newer release. Upgrade @adkit/session-sqlite to open it.`,
      );
    for (const migration of migrations.slice(current)) {
      try {
        db.exec(migration.up);
      } catch (cause) {
        throw new SessionError(
          `Could not migrate database ${location} to session schema version ${migration.version} (${migration.description}): ${(cause as Error).message}. Nothing was changed.`,
          { cause },
        );
      }
    }
    if (current !== latest)
      db.prepare('INSERT INTO adkit_schema (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version').run(latest);
  }).immediate();
}

