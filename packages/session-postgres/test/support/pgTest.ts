// What the Postgres tests share: the server globalSetup found (undefined: tests skipped), one pool
// per test file, and fresh schemas that are dropped when the test ends.
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { afterAll, inject, onTestFinished } from 'vitest';
import type {} from './providedContext.js';

/** The server for this run, or undefined when the Postgres tests are skipped (see globalSetup.ts). */
export const PG_URL = inject('adkitPgUrl');

let shared: Pool | undefined;
afterAll(async () => {
  await shared?.end();
  shared = undefined;
});

/** One pool per test file on the test server, ended after the file. */
export function testPool(): Pool {
  if (!PG_URL) throw new Error('no Postgres server for this run');
  shared ??= new Pool({ connectionString: PG_URL, max: 8 });
  return shared;
}

/** A new schema name, unique to this test. */
export function schemaName(): string {
  return `t_${randomBytes(6).toString('hex')}`;
}

/** A fresh schema name that is dropped (with everything in it) when the test ends. */
export function freshSchema(): string {
  const schema = schemaName();
  onTestFinished(async () => {
    await testPool().query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });
  return schema;
}
