import { createRequire } from 'node:module';
import { InMemoryRunner, LlmAgent, createUserContent, stringifyContent } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { mcpToolset } from '@adkit/mcp-toolset';

// The MCP reference server, started as a child process on first use and spoken to over stdio.
const server = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const everything = mcpToolset({ stdio: { command: process.execPath, args: [server, 'stdio'], stderr: 'ignore' } }, { toolFilter: ['get-sum', 'echo'] });

const model = new ScriptedModel([functionCallResponse([{ name: 'get-sum', args: { a: 2, b: 3 } }]), textResponse('2 + 3 = 5.')]);
const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'calculator', model, toolsets: [everything] }), autoCreateSession: true });
for await (const event of runner.runAsync({ userId: 'ann', sessionId: 's1', newMessage: createUserContent('What is 2 + 3?') }))
  if (event.errorCode) {
    console.error(`${event.author}: ${event.errorCode}: ${event.errorMessage}`);
    process.exitCode = 1;
  } else console.log(stringifyContent(event));
console.log(`the model saw: ${model.requests[1]!.config.tools![0]!.functionDeclarations!.map((d) => d.name).join(', ')}`);
await runner.close(); // ends the MCP session and stops the server process
