import type { Pool } from 'pg';
import { SessionError } from '@adkit/flow';
import { transaction } from './transaction.js';

/** One step of the schema's history. Never edit a released step; append a new one. */
export interface Migration {
  /** 1, 2, 3, …: the schema version the database has after this step. */
  version: number;
  description: string;
  /** SQL run in the migration's transaction; `{schema}` stands for the quoted schema name. */
  up: string;
}

/**
 * The schema's history, oldest first. The last entry's version is the one this code writes.
 *
 * Versions: every create and append takes the next number of `adkit_versions`, so a session's
 * version is the number of its last write, an event's version the number of the append that
 * stored it (also its order), and `incarnation` the number of the create, which tells a session
 * apart from one created again under a deleted one's id. State is JSON text, not jsonb: jsonb
 * cannot hold `\u0000` in strings, and text keeps the JSON exactly as written.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'sessions, events, app and user state, versions',
    up: `
      CREATE SEQUENCE {schema}.adkit_versions;
      CREATE TABLE {schema}.adkit_app_states (
        app_name text NOT NULL PRIMARY KEY,
        state text NOT NULL
      );
      CREATE TABLE {schema}.adkit_user_states (
        app_name text NOT NULL,
        user_id text NOT NULL,
        state text NOT NULL,
        PRIMARY KEY (app_name, user_id)
      );
      CREATE TABLE {schema}.adkit_sessions (
        app_name text NOT NULL,
        user_id text NOT NULL,
        id text NOT NULL,
        state text NOT NULL,
        create_time double precision NOT NULL,
        update_time double precision NOT NULL,
        version bigint NOT NULL,
        incarnation bigint NOT NULL,
        PRIMARY KEY (app_name, user_id, id)
      );
      CREATE INDEX adkit_sessions_by_creation ON {schema}.adkit_sessions (app_name, incarnation);
      CREATE TABLE {schema}.adkit_events (
        app_name text NOT NULL,
        user_id text NOT NULL,
        session_id text NOT NULL,
        version bigint NOT NULL,
        id text NOT NULL,
        timestamp double precision NOT NULL,
        format integer NOT NULL,
        data text NOT NULL,
        PRIMARY KEY (app_name, user_id, session_id, version),
        FOREIGN KEY (app_name, user_id, session_id) REFERENCES {schema}.adkit_sessions (app_name, user_id, id) ON DELETE CASCADE
      );
    `,
  },
];

/**
 * Brings the schema to the last version of `migrations`, in one transaction holding an advisory
 * lock (so processes starting together do not both migrate). Creates the schema if it is missing.
 * The version lives in `<schema>.adkit_schema`. A database newer than the code is refused; a
 * failing step rolls everything back (Postgres DDL is transactional).
 */
export async function migrate(pool: Pool, schema: string, migrations: readonly Migration[]): Promise<void> {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration #${i} has version ${m.version}; versions must run 1, 2, 3, …`);
  });
  const latest = migrations.length;
  const quoted = quoteIdentifier(schema);
  await transaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`adkit-session-schema:${schema}`]);
    const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${quoted}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${quoted}.adkit_schema (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)`);
    const current = Number((await client.query(`SELECT version FROM ${quoted}.adkit_schema WHERE id = 1`)).rows[0]?.version ?? 0);
    if (current > latest)
      throw new SessionError(
        `Schema "${schema}" has session schema version ${current}, but this @adkit/session-postgres knows versions up to ${latest}: it was written by a newer release. Upgrade @adkit/session-postgres to use it.`,
      );
    for (const migration of migrations.slice(current)) {
      try {
        await client.query(migration.up.replaceAll('{schema}', quoted));
      } catch (cause) {
        throw new SessionError(
          `Could not migrate schema "${schema}" to session schema version ${migration.version} (${migration.description}): ${(cause as Error).message}. Nothing was changed.`,
          { cause },
        );
      }
    }
    if (current !== latest)
      await client.query(
        `INSERT INTO ${quoted}.adkit_schema (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version`,
        [latest],
      );
  });
}

/** A Postgres identifier in double quotes, inner quotes doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
