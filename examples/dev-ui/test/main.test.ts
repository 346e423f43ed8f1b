// The example runs as `node dist/main.js` would, offline, with PORT=0: it prints the page's
// address on 127.0.0.1, and that server takes a message, shows the call waiting for approval,
// runs it once approved and answers; Ctrl+C (its SIGINT listener) closes it (HC-7, HC-10).
// Bad input tried: none from outside; the dev UI's own tests attack the server.
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

const main = new URL('../src/main.ts', import.meta.url);

async function call(base: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(new URL(path, base), body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.ok).toBe(true);
  return response.json();
}

async function idle(base: string, session: string): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const view = await call(base, session);
    if (!view.running) return view;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the run did not end');
}

it('HC-7, HC-10: serves the agent on 127.0.0.1; a message waits for approval, runs once approved; Ctrl+C closes it', async () => {
  const before = new Set(process.listeners('SIGINT'));
  const { stdout, stderr, exitCode } = await runExample(main, { env: { PORT: '0' } });
  const [stop] = process.listeners('SIGINT').filter((listener) => !before.has(listener));
  process.removeListener('SIGINT', stop!);
  expect({ stderr, exitCode }).toEqual({ stderr: [], exitCode: 0 });
  expect(stdout).toHaveLength(1);
  const base = /^adkit dev UI on (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(stdout[0]!)![1]!;

  expect(await call(base, 'api/apps')).toMatchObject({ userId: 'user', apps: [{ name: 'travel', agent: 'travel', recording: true }] });
  const { id } = await call(base, 'api/apps/travel/users/user/sessions', {});
  const session = `api/apps/travel/users/user/sessions/${id}`;
  await call(base, `${session}/messages`, { text: 'Lisbon' });
  const waiting = await idle(base, session);
  expect(waiting.pending.confirmations).toMatchObject([{ originalCall: { name: 'book_trip', args: { city: 'Lisbon' } } }]);
  await call(base, `${session}/confirmations`, { callId: waiting.pending.confirmations[0].callId, confirmed: true });
  const done = await idle(base, session);
  expect(done.events.at(-1).content.parts[0].text).toBe('Result: {"booked":"Lisbon","reference":"BK-LISBON"}');
  expect(done.pending).toEqual({ confirmations: [], longRunning: [], credentials: [] });

  stop!('SIGINT');
  await expect.poll(() => fetch(base).then(() => 'open', () => 'closed')).toBe('closed');
});
