// The example runs as `node dist/main.js` would, in a temporary working directory (it writes
// sessions.db there), and prints what its comments say. (@adkit/session-sqlite's README test
// checks that its README shows src/main.ts verbatim, with the same comments.)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteSessionService } from '@adkit/session-sqlite';
import { runExample } from '@adkit/test-support';
import { expect, it, onTestFinished } from 'vitest';

const main = new URL('../src/main.ts', import.meta.url);

it('TC-13: reads the session back from the file, with user: state and without temp: keys', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'adkit-durable-sessions-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));

  expect(await runExample(main, { cwd: dir })).toEqual({
    stdout: ["{ topic: 'orders', 'user:tier': 'gold' }", '1'],
    stderr: [],
    exitCode: 0,
  });
  expect(existsSync(join(dir, 'sessions.db'))).toBe(true);

  // A second run adds a second session to the same file; the first one is still there, as saved.
  expect((await runExample(main, { cwd: dir })).stdout).toEqual(["{ topic: 'orders', 'user:tier': 'gold' }", '1']);
  const sessions = new SqliteSessionService({ path: join(dir, 'sessions.db') });
  onTestFinished(() => sessions.close());
  const saved = await sessions.listSessions({ appName: 'shop', userId: 'ada' });
  expect(saved).toHaveLength(2);
  for (const { id } of saved) {
    const session = await sessions.getSession({ appName: 'shop', userId: 'ada', sessionId: id });
    expect(session?.state).toEqual({ topic: 'orders', 'user:tier': 'gold' });
    expect(session?.events.map((event) => event.content?.parts?.[0]?.text)).toEqual(['Where is my order?']);
  }
});
