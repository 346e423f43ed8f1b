// The example runs as `node dist/main.js` would, against a database of its own on the test server
// (DATABASE_URL), and prints what its comments say; run twice on one database, it prints the same
// (it starts from a new session). Bad input tried: no DATABASE_URL, a server that is not there, a
// database that does not exist: one line naming DATABASE_URL and exit code 1, no stack trace.
// (@adkit/session-postgres's README test checks that its README shows src/sessionConflict.ts verbatim.)
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { runExample } from '@adkit/test-support';
import { describe, expect, it, onTestFinished } from 'vitest';
import { PG_URL, testPool } from '../../../packages/session-postgres/test/support/pgTest.js';

const main = new URL('../src/main.ts', import.meta.url);

describe.skipIf(!PG_URL)('examples/postgres-sessions', () => {
  it('a stale session gets SESSION_CONFLICT; the reloaded one has the event and the user: state; a second run prints the same', async () => {
    const database = `example_${randomBytes(6).toString('hex')}`;
    await testPool().query(`CREATE DATABASE ${database}`);
    onTestFinished(async () => {
      await testPool().query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    });
    const url = new URL(PG_URL!);
    url.pathname = `/${database}`;

    const expected = { stdout: ['SESSION_CONFLICT', "1 { 'user:tier': 'gold' }"], stderr: [], exitCode: 0 };
    expect(await runExample(main, { env: { DATABASE_URL: url.href } })).toEqual(expected);
    expect(await runExample(main, { env: { DATABASE_URL: url.href } })).toEqual(expected);
  });

  it('a database that does not exist: one line naming DATABASE_URL, exit code 1', async () => {
    const url = new URL(PG_URL!);
    url.pathname = `/missing_${randomBytes(6).toString('hex')}`;
    expect(await runExample(main, { env: { DATABASE_URL: url.href } })).toEqual({
      stdout: [],
      stderr: [`Cannot use the Postgres database ${url.host}${url.pathname} (DATABASE_URL): no such database (3D000).`],
      exitCode: 1,
    });
  });
});

it('without DATABASE_URL: one line saying what to set, exit code 1', async () => {
  expect(await runExample(main, { env: { DATABASE_URL: undefined } })).toEqual({
    stdout: [],
    stderr: ['Set DATABASE_URL to a Postgres database this example may create tables in, e.g. DATABASE_URL=postgres://localhost/adkit'],
    exitCode: 1,
  });
});

it('a server that is not there: one line, exit code 1', async () => {
  // A port nothing listens on: bound, then closed.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  expect(await runExample(main, { env: { DATABASE_URL: `postgres://adkit@127.0.0.1:${port}/adkit` } })).toEqual({
    stdout: [],
    stderr: [`Cannot use the Postgres database 127.0.0.1:${port}/adkit (DATABASE_URL): nothing listens there (ECONNREFUSED).`],
    exitCode: 1,
  });
});
