// The example runs as `node dist/main.js` would, against a database of its own on the test server
// (DATABASE_URL), and prints what its comments say.
// (@adkit/session-postgres's README test checks that its README shows src/main.ts verbatim.)
import { randomBytes } from 'node:crypto';
import { runExample } from '@adkit/test-support';
import { describe, expect, it, onTestFinished } from 'vitest';
import { PG_URL, testPool } from '../../../packages/session-postgres/test/support/pgTest.js';

const main = new URL('../src/main.ts', import.meta.url);

describe.skipIf(!PG_URL)('examples/postgres-sessions', () => {
  it('a stale session gets SESSION_CONFLICT; the reloaded one has the event and the user: state', async () => {
    const database = `example_${randomBytes(6).toString('hex')}`;
    await testPool().query(`CREATE DATABASE ${database}`);
    onTestFinished(async () => {
      await testPool().query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    });
    const url = new URL(PG_URL!);
    url.pathname = `/${database}`;

    expect(await runExample(main, { env: { DATABASE_URL: url.href } })).toEqual({
      stdout: ['SESSION_CONFLICT', "1 { 'user:tier': 'gold' }"],
      stderr: [],
      exitCode: 0,
    });
  });
});
