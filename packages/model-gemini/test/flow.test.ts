import { InMemoryRunner, LlmAgent, createUserContent, type Event } from '@adkit/flow';
import { fixtureRequestBody, startReplayServer } from '@adkit/replay-server';
import { expect, it } from 'vitest';
import { geminiAt } from './helpers.js';

it('through the flow: a server-side MCP call is not run again, and the turn ends with the answer', async () => {
  const server = await startReplayServer({ script: ['gemini--server-side-mcp-tool-stream.sse'] });
  try {
    const agent = new LlmAgent({
      name: 'weather',
      model: geminiAt(server, 'gemini-2.5-flash'),
      generateContentConfig: { tools: (fixtureRequestBody('gemini--server-side-mcp-tool-stream.sse') as { tools: never }).tools },
    });
    const runner = new InMemoryRunner({ agent, appName: 'mcp', autoCreateSession: true });
    const events: Event[] = [];
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: 's',
      newMessage: createUserContent('What is the weather in San Francisco on 02/02/2026?'),
      runConfig: { streamingMode: 'sse' },
    }))
      events.push(event);
    const complete = events.filter((e) => !e.partial);
    expect(complete).toHaveLength(1);
    expect(complete[0]!.errorCode).toBeUndefined();
    expect(complete[0]!.content!.parts!.map((p) => Object.keys(p))).toEqual([['text']]);
    expect((complete[0]!.customMetadata as { serverToolCalls: Array<{ functionCall: { name: string } }> }).serverToolCalls[0]!.functionCall.name).toBe(
      'weather_server_get_weather',
    );
    // One model call: no tool ran locally, no "tool not found" answer went back.
    expect(server.requests).toHaveLength(1);
    server.assertDone();
  } finally {
    await server.close();
  }
});
