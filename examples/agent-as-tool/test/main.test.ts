// The example runs as `node dist/main.js` would, offline: the summarizer's own events show as
// progress of the call, and the main agent answers from its result (AT-6).
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

it('AT-6: the main agent calls the summarizer as a tool and answers from its result', async () => {
  const { stdout, stderr, exitCode } = await runExample(new URL('../src/main.ts', import.meta.url));
  expect(stdout).toEqual([
    'assistant: [call summarizer({"request":"Summarise: agents call tools, and an agent can be a tool."})]',
    '  (summarizer working: Agents call tools; tools can be agents.)',
    'assistant: [response summarizer: {"result":"Agents call tools; tools can be agents."}]',
    'assistant: In one line: agents call tools; tools can be agents.',
  ]);
  expect({ stderr, exitCode }).toEqual({ stderr: [], exitCode: 0 });
});
