import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemoryRunner, LlmAgent, createUserContent, stringifyContent } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { mcpToolset } from '@adkit/mcp-toolset';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

// What each run carries for its user; never saved in the session.
declare module '@adkit/flow' {
  interface RunContext {
    token?: string;
  }
}

// A small MCP server of our own over Streamable HTTP on 127.0.0.1: it knows callers by their token.
const accounts: Record<string, string> = { 'Bearer t-ann': 'Ann (admin)', 'Bearer t-bob': 'Bob (viewer)' };
const http = createServer(async (req, res) => {
  const server = new McpServer({ name: 'accounts', version: '1.0.0' });
  server.registerTool('whoami', { description: 'Who the caller is.' }, async (extra) => ({
    content: [{ type: 'text', text: accounts[String(extra.requestInfo?.headers.authorization)] ?? 'unknown caller' }],
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(req, res);
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;

// The toolset sends each run's token, from the run's context, with its listing and its calls.
const toolset = mcpToolset({ url, headers: (ctx) => ({ authorization: `Bearer ${ctx.context.token ?? ''}` }) });
const model = new ScriptedModel([
  functionCallResponse([{ name: 'whoami', args: {} }]),
  textResponse('You are Ann.'),
  functionCallResponse([{ name: 'whoami', args: {} }]),
  textResponse('You are Bob.'),
]);
const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'assistant', model, toolsets: [toolset] }), autoCreateSession: true });
for (const [userId, token] of [['ann', 't-ann'], ['bob', 't-bob']] as const)
  for await (const event of runner.runAsync({ userId, sessionId: 's1', newMessage: createUserContent('Who am I?'), context: { token } }))
    if (event.errorCode) {
      console.error(`${event.author}: ${event.errorCode}: ${event.errorMessage}`);
      process.exitCode = 1;
    } else console.log(`${userId}: ${stringifyContent(event)}`);
await runner.close();
http.close();
