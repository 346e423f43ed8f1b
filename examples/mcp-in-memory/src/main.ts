import { InMemoryRunner, LlmAgent, createUserContent, stringifyContent } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { mcpToolset } from '@adkit/mcp-toolset';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

// An MCP server built with the SDK, in this process; its tool reports progress as it works.
function weatherServer(): McpServer {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  const input = { city: z.string(), days: z.number().int().min(1).max(5) };
  server.registerTool('get_forecast', { description: 'The forecast for the next days.', inputSchema: input }, async ({ city, days }, extra) => {
    const token = extra._meta?.progressToken;
    const skies = ['sunny', 'cloudy', 'rain'];
    for (let day = 1; day <= days; day++)
      if (token !== undefined)
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: day, total: days, message: `day ${day}` } });
    return { content: [{ type: 'text', text: `${city}: ${skies.slice(0, days).join(', then ')}.` }] };
  });
  return server;
}
// A new linked transport pair per connection, so the toolset can reconnect.
const weather = mcpToolset({
  transport: async () => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    await weatherServer().connect(server);
    return client;
  },
});
const model = new ScriptedModel([
  functionCallResponse([{ name: 'get_forecast', args: { city: 'Oslo', days: 3 } }]),
  textResponse('Oslo: sunny first, rain by Wednesday.'),
]);
const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'forecaster', model, toolsets: [weather] }), autoCreateSession: true });
for await (const event of runner.runAsync({ userId: 'ann', sessionId: 's1', newMessage: createUserContent('Forecast for Oslo?') }))
  if (event.errorCode) {
    console.error(`${event.author}: ${event.errorCode}: ${event.errorMessage}`);
    process.exitCode = 1;
  } else if (event.partial) console.log(`  … ${event.toolProgress!.toolName} ${Math.round(event.toolProgress!.fraction! * 100)}%: ${event.toolProgress!.message}`);
  else console.log(stringifyContent(event));
await runner.close(); // ends the MCP session
