// MCP over HTTP: the real server-everything over Streamable HTTP and legacy SSE on 127.0.0.1
// (forced by the loopback preload, checked in /proc/net), and an SDK-built Streamable HTTP
// server for sessions and per-user headers. Bad input tried: a server that forgot the session
// (restart), headers(ctx) that throws, a header value with CR/LF, a header the transport owns,
// more users than maxSessions, a URL answering 401, a URL that is no MCP server.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolContext } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpToolset, type McpTool, type McpToolset } from '../src/index.js';
import { startEverythingHttp, type RunningServer } from './support/realServers.js';
import { httpMcpServer, type HttpMcpServer } from './support/sdkServers.js';
import { waitFor } from './support/waitFor.js';

const ctx = (context: Record<string, unknown> = {}): ToolContext => createToolContext({ context });

async function tool(toolset: McpToolset, name: string, context?: Record<string, unknown>): Promise<McpTool> {
  return ((await toolset.tools(ctx(context))) as McpTool[]).find((candidate) => candidate.name === name)!;
}

/** Addresses listening on the port, from /proc/net/tcp and tcp6 (hex "0100007F" is 127.0.0.1). */
function listeners(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const found: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let table = '';
    try {
      table = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of table.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state === '0A' && local?.endsWith(`:${hexPort}`)) found.push(local.split(':')[0]!);
    }
  }
  return found;
}

describe('server-everything over Streamable HTTP and legacy SSE', { timeout: 20_000 }, () => {
  let http: RunningServer;
  let sse: RunningServer;
  beforeAll(async () => {
    [http, sse] = await Promise.all([startEverythingHttp('streamableHttp'), startEverythingHttp('sse')]);
  });
  afterAll(async () => {
    await Promise.all([http?.close(), sse?.close()]);
  });

  it('listens on 127.0.0.1 only', () => {
    for (const server of [http, sse]) expect(listeners(Number(new URL(server.url).port))).toEqual(['0100007F']);
  });

  it('Streamable HTTP: same tools and results as over stdio', async () => {
    const toolset = mcpToolset({ url: http.url });
    expect((await toolset.tools(ctx())).length).toBe(13);
    expect(await (await tool(toolset, 'get-sum')).run(ctx(), { a: 2, b: 3 })).toEqual({ output: 'The sum of 2 and 3 is 5.' });
    expect(await (await tool(toolset, 'get-structured-content')).run(ctx(), { location: 'Chicago' })).toEqual({
      output: { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 },
    });
    await toolset.close();
  });

  it('a legacy HTTP+SSE server: "auto" falls back to SSE after the 4xx answer', async () => {
    const toolset = mcpToolset({ url: sse.url });
    expect((await toolset.tools(ctx())).length).toBe(13);
    expect(await (await tool(toolset, 'echo')).run(ctx(), { message: 'over SSE' })).toEqual({ output: 'Echo: over SSE' });
    await toolset.close();
    const strict = mcpToolset({ url: sse.url, protocol: 'streamable-http' });
    await expect(strict.tools(ctx())).rejects.toThrow(/^failed to list MCP tools: failed to init MCP session: Streamable HTTP error: Error POSTing to endpoint/);
    await strict.close();
  });
});

describe('servers that are not what the URL promised', () => {
  it('a 401 is reported as is (no SSE attempt); a URL that is no MCP server reports both attempts', async () => {
    const requests: string[] = [];
    const http = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      if (req.url === '/private') res.writeHead(401).end('who are you?');
      else res.writeHead(404).end('no such page');
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const guarded = mcpToolset({ url: `${base}/private` });
    await expect(guarded.tools(ctx())).rejects.toThrow(
      'failed to list MCP tools: failed to init MCP session: Streamable HTTP error: Error POSTing to endpoint: who are you?',
    );
    expect(requests).toEqual(['POST /private']);
    const nothing = mcpToolset({ url: `${base}/nothing` });
    await expect(nothing.tools(ctx())).rejects.toThrow(
      /^failed to list MCP tools: failed to init MCP session: Streamable HTTP error: Error POSTing to endpoint: no such page; as a legacy SSE server: SSE error: /,
    );
    await Promise.all([guarded.close(), nothing.close()]);
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });
});

describe('sessions over Streamable HTTP (SDK server)', () => {
  let server: HttpMcpServer;
  beforeAll(async () => {
    server = await httpMcpServer(() => {
      const mcp = new McpServer({ name: 'who', version: '1.0.0' });
      mcp.registerTool('whoami', { description: 'Which user the server sees.' }, async (extra) => ({
        content: [{ type: 'text', text: String(extra.requestInfo?.headers['x-user'] ?? 'nobody') }],
      }));
      return mcp;
    });
  });
  afterAll(() => server?.close());

  it('MCP-4: a session the server forgot (restart) is opened again and the call is sent again', async () => {
    const toolset = mcpToolset({ url: server.url });
    const whoami = await tool(toolset, 'whoami');
    expect(await whoami.run(ctx(), {})).toEqual({ output: 'nobody' });
    server.forgetSessions();
    server.seen.length = 0;
    expect(await whoami.run(ctx(), {})).toEqual({ output: 'nobody' });
    const posts = server.seen.filter((request) => request.httpMethod === 'POST');
    expect(posts.map((request) => request.rpcMethods.join(','))).toEqual([
      'tools/call', // 404: session not found
      'initialize',
      'notifications/initialized',
      'tools/call',
    ]);
    await toolset.close();
  });

  it('close() ends the session on the server (DELETE)', async () => {
    const toolset = mcpToolset({ url: server.url });
    await toolset.tools(ctx());
    const before = server.sessions();
    server.seen.length = 0;
    await toolset.close();
    expect(server.seen.map((request) => request.httpMethod)).toEqual(['DELETE']);
    expect(server.sessions()).toBe(before - 1);
  });

  it("per-user headers from ctx.context: each user's header on listing and calls, one session per user", async () => {
    const toolset = mcpToolset({ url: server.url, headers: (context) => ({ 'x-user': (context.context as { user: string }).user }) });
    server.seen.length = 0;
    const ann = await tool(toolset, 'whoami', { user: 'ann' });
    const bob = await tool(toolset, 'whoami', { user: 'bob' });
    expect(ann).not.toBe(bob);
    expect(await ann.run(ctx({ user: 'ann' }), {})).toEqual({ output: 'ann' });
    expect(await bob.run(ctx({ user: 'bob' }), {})).toEqual({ output: 'bob' });
    expect(await (await tool(toolset, 'whoami', { user: 'ann' })).run(ctx({ user: 'ann' }), {})).toEqual({ output: 'ann' });
    const byUser = (method: string) =>
      server.seen.filter((request) => request.rpcMethods.includes(method)).map((request) => request.headers['x-user']);
    expect(byUser('initialize')).toEqual(['ann', 'bob']);
    expect(byUser('tools/list')).toEqual(['ann', 'bob']);
    expect(byUser('tools/call')).toEqual(['ann', 'bob', 'ann']);
    const sessions = new Set(server.seen.filter((request) => request.sessionId).map((r) => `${r.headers['x-user']}:${r.sessionId}`));
    expect(sessions.size).toBe(2);
    await toolset.close();
  });

  it('beyond maxSessions the least recently used idle session is closed', async () => {
    const toolset = mcpToolset(
      { url: server.url, headers: (context) => ({ 'x-user': (context.context as { user: string }).user }) },
      { maxSessions: 2 },
    );
    server.seen.length = 0;
    for (const user of ['ann', 'bob', 'cy']) await toolset.tools(ctx({ user }));
    await waitFor(() => server.seen.some((request) => request.httpMethod === 'DELETE' && request.headers['x-user'] === 'ann'));
    expect(server.seen.filter((request) => request.httpMethod === 'DELETE').map((request) => request.headers['x-user'])).toEqual(['ann']);
    await toolset.close();
  });

  it('bad headers fail the listing with a message naming the fix, and send nothing', async () => {
    const count = server.seen.length;
    const failing = mcpToolset({ url: server.url, headers: () => { throw new Error('no token for this user'); } });
    await expect(failing.tools(ctx())).rejects.toThrow('mcpToolset "mcp_tool_set": headers(ctx) failed: no token for this user');
    const injected = mcpToolset({ url: server.url, headers: () => ({ 'x-user': 'ann\r\nx-admin: yes' }) });
    await expect(injected.tools(ctx())).rejects.toThrow(/^mcpToolset "mcp_tool_set": invalid header: /);
    const reserved = mcpToolset({ url: server.url, headers: () => ({ 'Mcp-Session-Id': 'someone-else' }) });
    await expect(reserved.tools(ctx())).rejects.toThrow(
      'mcpToolset "mcp_tool_set": the header "Mcp-Session-Id" is set by the MCP transport itself; leave it out of headers.',
    );
    const numbers = mcpToolset({ url: server.url, headers: () => ({ 'x-user': 42 }) as never });
    await expect(numbers.tools(ctx())).rejects.toThrow(/headers must map header names to string values/);
    expect(server.seen.length).toBe(count);
  });
});
