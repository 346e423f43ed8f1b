// The example runs as `node dist/main.js` would, offline: an MCP server of its own on 127.0.0.1
// over Streamable HTTP; each run's token (from the run's context) reaches the server as a header,
// so each user is seen as themselves.
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

it("per-user headers from the run's context reach the MCP server over Streamable HTTP", async () => {
  const { stdout, stderr, exitCode } = await runExample(new URL('../src/main.ts', import.meta.url));
  expect(stdout).toEqual([
    'ann: [call whoami({})]',
    'ann: [response whoami: {"output":"Ann (admin)"}]',
    'ann: You are Ann.',
    'bob: [call whoami({})]',
    'bob: [response whoami: {"output":"Bob (viewer)"}]',
    'bob: You are Bob.',
  ]);
  expect({ stderr, exitCode }).toEqual({ stderr: [], exitCode: 0 });
});
