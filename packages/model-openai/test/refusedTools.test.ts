// #23 point 10 through the real openai SDK: a tool whose schema is 10,000 levels deep or cyclic is
// refused by the flow, named in an error event and a warning, before this adapter sees it; the
// request goes out with the other tools (today's failure: "Maximum call stack size exceeded" on
// every request of the agent).
import { InMemoryRunner, LlmAgent, createUserContent, type Event, type FunctionDeclaration, type RunnableTool } from '@adkit/flow';
import { startReplayServer } from '@adkit/replay-server';
import { expect, it } from 'vitest';
import { openaiAt } from './helpers.js';

function tool(name: string, parametersJsonSchema: unknown): RunnableTool {
  return {
    name,
    description: `the ${name} tool`,
    declaration: () => ({ name, description: `the ${name} tool`, parametersJsonSchema }) as FunctionDeclaration,
    run: async () => ({}),
  };
}

function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

for (const api of ['chat', 'responses'] as const) {
  it(`#23 point 10 (${api}): deep and cyclic schemas refuse those tools, naming them; the request goes out with the good tool`, async () => {
    const answer =
      api === 'chat'
        ? { endpoint: '/chat/completions', json: { id: 'c1', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'done' } }] } }
        : {
            endpoint: '/responses',
            json: {
              id: 'r1',
              object: 'response',
              created_at: 1,
              model: 'gpt-4o-mini',
              status: 'completed',
              output: [{ type: 'message', id: 'm1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done', annotations: [] }] }],
            },
          };
    const server = await startReplayServer({ script: [answer] });
    try {
      const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
      (cyclic.properties as Record<string, unknown>).self = cyclic;
      const warnings: string[] = [];
      const agent = new LlmAgent({
        name: 'a',
        model: openaiAt(server, 'gpt-4o-mini', { api }),
        tools: [tool('deep', nested(10_000)), tool('loop', cyclic), tool('lookup', { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] })],
      });
      const runner = new InMemoryRunner({ agent, autoCreateSession: true, logger: { warn: (m) => warnings.push(m), error: (m) => warnings.push(m) } });
      const events: Event[] = [];
      for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('hi') })) events.push(event);

      expect(events.map((e) => e.errorCode ?? e.content?.parts?.[0]?.text)).toEqual(['TOOL_REFUSED', 'TOOL_REFUSED', 'done']);
      expect(events[0]!.errorMessage).toBe('Tool "deep" is left out: its parametersJsonSchema nests deeper than 100 levels; flatten it, or use $defs and $ref.');
      expect(events[1]!.errorMessage).toMatch(/^Tool "loop" is left out: its parametersJsonSchema refers to itself/);
      expect(warnings).toHaveLength(2);
      server.assertDone();
      const body = server.requests[0]!.body as { tools: { name?: string; function?: { name: string } }[] };
      expect(body.tools.map((entry) => entry.function?.name ?? entry.name)).toEqual(['lookup']);
    } finally {
      await server.close();
    }
  });
}
