import { quoteIdentifier } from './migrations.js';

/** A named statement: prepared once per connection by Postgres, by this name. */
export interface Statement {
  name: string;
  text: string;
}

/** The statements of one schema; the schema is part of each name, so services on one pool do not clash. */
export type Statements = ReturnType<typeof sessionStatements>;

/**
 * Every statement `PostgresSessionService` runs, for the tables in `schema`. Parameters are
 * always $1 = app name, $2 = user id, $3 = session id where a session is meant.
 */
export function sessionStatements(schema: string) {
  const s = quoteIdentifier(schema);
  const statement = (name: string, text: string): Statement => ({ name: `adkit:${schema}:${name}`, text });
  const sessionColumns = 's.user_id, s.id, s.state, s.update_time, s.version, s.incarnation';
  return {
    /** $4 state, $5 time: the new session with the next version, or no row when it exists. */
    createSession: statement(
      'createSession',
      `WITH v AS (SELECT nextval('${s}.adkit_versions') AS n)
       INSERT INTO ${s}.adkit_sessions (app_name, user_id, id, state, create_time, update_time, version, incarnation)
       SELECT $1, $2, $3, $4, $5, $5, v.n, v.n FROM v
       ON CONFLICT DO NOTHING RETURNING version`,
    ),
    /**
     * The session row with the app and user state and, when $5, its events newer than version $4
     * (as arrays, oldest first; null when there are none): one round trip, one snapshot.
     */
    getSession: statement(
      'getSession',
      `SELECT ${sessionColumns}, a.state AS app_state, u.state AS user_state,
              ev.versions, ev.ids, ev.formats, ev.datas
       FROM ${s}.adkit_sessions s
       LEFT JOIN ${s}.adkit_app_states a ON a.app_name = s.app_name
       LEFT JOIN ${s}.adkit_user_states u ON u.app_name = s.app_name AND u.user_id = s.user_id
       LEFT JOIN LATERAL (
         SELECT array_agg(e.version ORDER BY e.version) AS versions, array_agg(e.id ORDER BY e.version) AS ids,
                array_agg(e.format ORDER BY e.version) AS formats, array_agg(e.data ORDER BY e.version) AS datas
         FROM ${s}.adkit_events e
         WHERE $5::boolean AND e.app_name = s.app_name AND e.user_id = s.user_id AND e.session_id = s.id AND e.version > $4
       ) ev ON true
       WHERE s.app_name = $1 AND s.user_id = $2 AND s.id = $3`,
    ),
    /** Up to version $4, at or after time $5 (null: any), the newest $6 (null: all), newest first. */
    filteredEvents: statement(
      'filteredEvents',
      `SELECT version, id, format, data FROM ${s}.adkit_events
       WHERE app_name = $1 AND user_id = $2 AND session_id = $3 AND version <= $4
         AND ($5::double precision IS NULL OR timestamp >= $5)
       ORDER BY version DESC LIMIT $6`,
    ),
    /** The app's sessions ($2 null: every user's), oldest first, with each user's state. */
    listSessions: statement(
      'listSessions',
      `SELECT ${sessionColumns}, u.state AS user_state
       FROM ${s}.adkit_sessions s
       LEFT JOIN ${s}.adkit_user_states u ON u.app_name = s.app_name AND u.user_id = s.user_id
       WHERE s.app_name = $1 AND ($2::text IS NULL OR s.user_id = $2)
       ORDER BY s.incarnation`,
    ),
    appState: statement('appState', `SELECT state FROM ${s}.adkit_app_states WHERE app_name = $1`),
    /** The app and user state of a user, read together. */
    sharedState: statement(
      'sharedState',
      `SELECT (SELECT state FROM ${s}.adkit_app_states WHERE app_name = $1) AS app_state,
              (SELECT state FROM ${s}.adkit_user_states WHERE app_name = $1 AND user_id = $2) AS user_state`,
    ),
    deleteSession: statement('deleteSession', `DELETE FROM ${s}.adkit_sessions WHERE app_name = $1 AND user_id = $2 AND id = $3`),
    /** The session row, locked for this transaction. */
    lockSession: statement(
      'lockSession',
      `SELECT state, version, incarnation FROM ${s}.adkit_sessions WHERE app_name = $1 AND user_id = $2 AND id = $3 FOR UPDATE`,
    ),
    sessionVersion: statement('sessionVersion', `SELECT version FROM ${s}.adkit_sessions WHERE app_name = $1 AND user_id = $2 AND id = $3`),
    /**
     * The append itself: when the session is at version $4 (null: any), moves it to the next
     * version with state $5 (null: unchanged) and time $6, and stores the event ($7 id, $8
     * format, $9 JSON) under that version. No row when the session is missing or at another version.
     */
    append: statement(
      'append',
      `WITH s AS (
         UPDATE ${s}.adkit_sessions SET version = nextval('${s}.adkit_versions'), state = coalesce($5, state), update_time = $6
         WHERE app_name = $1 AND user_id = $2 AND id = $3 AND ($4::bigint IS NULL OR version = $4)
         RETURNING version, incarnation
       ), e AS (
         INSERT INTO ${s}.adkit_events (app_name, user_id, session_id, version, id, timestamp, format, data)
         SELECT $1, $2, $3, s.version, $7, $6, $8, $9 FROM s
         RETURNING version
       )
       SELECT s.version, s.incarnation FROM s JOIN e ON e.version = s.version`,
    ),
    /** The app's state row, created empty if missing, locked for this transaction. */
    lockAppState: statement(
      'lockAppState',
      `INSERT INTO ${s}.adkit_app_states (app_name, state) VALUES ($1, '{}')
       ON CONFLICT (app_name) DO UPDATE SET state = ${s}.adkit_app_states.state RETURNING state`,
    ),
    setAppState: statement('setAppState', `UPDATE ${s}.adkit_app_states SET state = $2 WHERE app_name = $1`),
    /** The user's state row, created empty if missing, locked for this transaction. */
    lockUserState: statement(
      'lockUserState',
      `INSERT INTO ${s}.adkit_user_states (app_name, user_id, state) VALUES ($1, $2, '{}')
       ON CONFLICT (app_name, user_id) DO UPDATE SET state = ${s}.adkit_user_states.state RETURNING state`,
    ),
    setUserState: statement('setUserState', `UPDATE ${s}.adkit_user_states SET state = $3 WHERE app_name = $1 AND user_id = $2`),
  };
}
