// One persistent connection per toolset (MCP-3, MCP-4, MCP-9), against SDK-built servers: in
// memory, and a stdio child this test kills. Bad input tried: 20 concurrent first calls, a child
// killed between calls and during a call, a child flooding stdout with a 16 MB message (the SDK's stdio limit is 10 MB), a server
// that never answers, a transport instance reused after it closed, close() during a connect.
import type { ToolContext } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mcpToolset, type McpTool, type McpToolset } from '../src/index.js';
import { isAlive, nodeServer } from './support/realServers.js';
import { inMemoryServer } from './support/sdkServers.js';
import { waitFor } from './support/waitFor.js';

const PID_SERVER = fileURLToPath(new URL('./fixtures/pidServer.mjs', import.meta.url));
const ctx = (): ToolContext => createToolContext();

function echoServer(): McpServer {
  const server = new McpServer({ name: 'echo', version: '1.0.0' });
  server.registerTool('ping', { description: 'Answers pong.' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
  return server;
}

async function toolMap(toolset: McpToolset): Promise<Map<string, McpTool>> {
  return new Map((await toolset.tools(ctx())).map((tool) => [tool.name, tool as McpTool]));
}

describe('lazy, single-flight connection (MCP-3)', () => {
  it('connects on first use, once for 20 concurrent first listings and calls', async () => {
    const server = inMemoryServer(echoServer);
    const toolset = mcpToolset(server);
    expect(server.connects).toBe(0);
    const listings = await Promise.all(Array.from({ length: 20 }, () => toolset.tools(ctx())));
    expect(server.connects).toBe(1);
    const ping = listings[0]![0] as McpTool;
    const results = await Promise.all(Array.from({ length: 20 }, () => ping.run(ctx(), {})));
    expect(results).toEqual(Array.from({ length: 20 }, () => ({ output: 'pong' })));
    expect(server.connects).toBe(1);
    expect(listings.every((tools) => tools[0] === ping)).toBe(true); // converted once per listing
    await toolset.close();
  });

  it('MCP-3: a server that cannot start fails with "failed to init MCP session", for the model on a call', async () => {
    const toolset = mcpToolset({ stdio: { command: '/nonexistent/mcp-server', stderr: 'ignore' } });
    await expect(toolset.tools(ctx())).rejects.toThrow(/^failed to list MCP tools: failed to init MCP session: spawn \/nonexistent\/mcp-server ENOENT/);
    await toolset.close();
  });

  it('a server that never answers initialize fails after connectTimeoutMs instead of hanging', async () => {
    const toolset = mcpToolset(
      { transport: () => InMemoryTransport.createLinkedPair()[0] }, // nobody listens on the other end
      { connectTimeoutMs: 150 },
    );
    const started = Date.now();
    await expect(toolset.tools(ctx())).rejects.toThrow(/failed to init MCP session: .*(timed out|did not answer)/);
    expect(Date.now() - started).toBeLessThan(2_000);
    await toolset.close();
  });

  it('a transport given as an instance serves one connection; reconnecting says to pass a function', async () => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    await echoServer().connect(server);
    const toolset = mcpToolset({ transport: client });
    const [ping] = await toolset.tools(ctx());
    expect(await (ping as McpTool).run(ctx(), {})).toEqual({ output: 'pong' });
    await toolset.close();
    await expect((ping as McpTool).run(ctx(), {})).rejects.toThrow(/pass a function returning a new transport/);
  });
});

// Each stdio case starts the SDK server one or more times (about a second each on a busy machine).
describe('a stdio server killed mid-run (MCP-4)', { timeout: 20_000 }, () => {
  it('the next call after the child died reconnects and succeeds', async () => {
    const toolset = mcpToolset(nodeServer(PID_SERVER));
    const tools = await toolMap(toolset);
    const first = Number((await tools.get('whoami')!.run(ctx(), {}))!.output);
    process.kill(first, 'SIGKILL');
    await waitFor(() => !isAlive(first));
    const second = Number((await tools.get('whoami')!.run(ctx(), {}))!.output);
    expect(second).not.toBe(first);
    expect(isAlive(second)).toBe(true);
    await toolset.close();
    expect(isAlive(second)).toBe(false);
  });

  it('a call cut by the crash is retried once when the tool is read-only, and reported otherwise', async () => {
    const toolset = mcpToolset(nodeServer(PID_SERVER));
    const tools = await toolMap(toolset);
    const pid = Number((await tools.get('whoami')!.run(ctx(), {}))!.output);
    const readOnly = tools.get('wait_readonly')!.run(ctx(), { ms: 400 });
    const other = tools.get('wait')!.run(ctx(), { ms: 400 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.kill(pid, 'SIGKILL');
    await expect(other).rejects.toMatchObject({
      code: 'MCP_CALL_INTERRUPTED',
      message:
        'The connection to the MCP server broke during the call to tool "wait" (MCP error -32000: Connection closed); the call may or may not have run. Check its effect before calling it again; the next call reconnects.',
    });
    const retried = (await readOnly)!.output as string;
    expect(retried).toMatch(/^waited 400 ms in \d+$/);
    expect(retried).not.toContain(String(pid));
    await toolset.close();
  });

  it('a 16 MB message, over the 10 MB stdio limit, is an error for the model; the next call reconnects', async () => {
    const toolset = mcpToolset(nodeServer(PID_SERVER));
    const tools = await toolMap(toolset);
    const pid = Number((await tools.get('whoami')!.run(ctx(), {}))!.output);
    await expect(tools.get('flood')!.run(ctx(), { mb: 16 })).rejects.toMatchObject({
      code: 'MCP_CALL_INTERRUPTED',
      message: expect.stringContaining('last transport error: ReadBuffer exceeded maximum size of 10485760 bytes'),
    });
    const next = Number((await tools.get('whoami')!.run(ctx(), {}))!.output);
    expect(next).not.toBe(pid);
    await waitFor(() => !isAlive(pid));
    await toolset.close();
  });
});

describe('close (MCP-9)', { timeout: 20_000 }, () => {
  it('ends the stdio child: its pid is gone when close() resolves; a later use starts a new one', async () => {
    const toolset = mcpToolset(nodeServer(PID_SERVER));
    const tools = await toolMap(toolset);
    const pid = Number((await tools.get('whoami')!.run(ctx(), {}))!.output);
    expect(isAlive(pid)).toBe(true);
    await toolset.close();
    expect(isAlive(pid)).toBe(false);
    await toolset.close(); // twice is fine
    const again = Number((await tools.get('whoami')!.run(ctx(), {}))!.output);
    expect(again).not.toBe(pid);
    await toolset.close();
    expect(isAlive(again)).toBe(false);
  });

  it('close() during the first connect leaves no child behind', async () => {
    const toolset = mcpToolset(nodeServer(PID_SERVER));
    const listing = toolset.tools(ctx());
    await new Promise((resolve) => setTimeout(resolve, 20)); // the child is starting
    await toolset.close();
    await expect(listing).rejects.toThrow(/closed while connecting/);
    // The child spawned for that connect is stopped too: a new connection gets a new process.
    const tools = await toolMap(toolset);
    const pid = Number((await tools.get('whoami')!.run(ctx(), {}))!.output);
    await toolset.close();
    expect(isAlive(pid)).toBe(false);
  });
});
