import { InMemoryRunner, LlmAgent, createUserContent, type Toolset } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import { toolSearch } from '@adkit/tool-search';
import Type from 'typebox';

// 300 tools, as a large MCP server or OpenAPI description lists them.
const catalog: Toolset = {
  name: 'catalog',
  tools: async () =>
    ['invoice', 'customer', 'order'].flatMap((thing) =>
      Array.from({ length: 100 }, (_, i) =>
        functionTool({
          name: `archive_${thing}_${i}`,
          description: `Archives ${thing} number ${i}.`,
          parameters: Type.Object({ reason: Type.String() }),
          execute: ({ reason }) => ({ archived: `${thing} ${i}`, reason }),
        }),
      ),
    ),
};

/** Offline: the model searches, then calls what it found. Returns how many tools each step declared. */
export async function toolSearchExample(): Promise<number[]> {
  const model = new ScriptedModel([
    functionCallResponse([{ name: 'search_tools', args: { query: 'archive invoice 42' } }]),
    functionCallResponse([{ name: 'archive_invoice_42', args: { reason: 'paid' } }]),
    textResponse('Invoice 42 is archived.'),
  ]);
  const agent = new LlmAgent({ name: 'clerk', model, tools: [toolSearch([catalog], { maxResults: 3 })] });
  const runner = new InMemoryRunner({ agent, autoCreateSession: true });
  for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('Archive invoice 42') })) void _;
  return model.requests.map((request) => request.config.tools?.[0]?.functionDeclarations?.length ?? 0);
}
