// The example runs as `node dist/main.js` would, offline: its own Petstore on 127.0.0.1 serves the
// description the toolset reads, and the model's call reaches it with the app's API key.
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

it('an agent lists pets through the Petstore\'s OpenAPI description', async () => {
  const { stdout, stderr, exitCode } = await runExample(new URL('../src/main.ts', import.meta.url));
  expect(stdout).toEqual([
    '[call listPets({"limit":2})]',
    '[response listPets: {"status":200,"headers":{"content-type":"application/json","content-length":"45"},"body":[{"id":1,"name":"Rex"},{"id":2,"name":"Tom"}]}]',
    'Rex and Tom.',
  ]);
  expect({ stderr, exitCode }).toEqual({ stderr: [], exitCode: 0 });
});
