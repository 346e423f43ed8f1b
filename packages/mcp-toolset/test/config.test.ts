// Programmer errors throw at construction with a message naming the fix (DESIGN principle 1),
// and nothing connects at construction (MCP-3). Bad input tried: no server, two kinds at once,
// empty and non-string commands, a relative or ftp URL, headers for stdio, a reserved header,
// zero, negative and NaN limits, options of the wrong type.
import { describe, expect, it } from 'vitest';
import { mcpResources, mcpToolset, type McpServerConfig, type McpToolsetOptions } from '../src/index.js';

const stdio: McpServerConfig = { stdio: { command: 'node', args: ['server.js'] } };
const build = (server: unknown, options?: unknown) => () => mcpToolset(server as McpServerConfig, options as McpToolsetOptions);

describe('mcpToolset configuration', () => {
  it('MCP-2: the default name; nothing is started at construction (MCP-3)', () => {
    expect(mcpToolset({ stdio: { command: '/nonexistent/server' } }).name).toBe('mcp_tool_set');
    expect(mcpToolset({ url: 'http://127.0.0.1:1/mcp' }, { name: 'github' }).name).toBe('github');
  });

  it('refuses servers that are not exactly one of stdio, url, transport', () => {
    expect(build(undefined)).toThrow('mcpToolset "mcp_tool_set": expected a server such as {stdio: {command, args}}, {url: "http://127.0.0.1:3001/mcp"} or {transport}, got undefined.');
    expect(build({})).toThrow('mcpToolset "mcp_tool_set": give exactly one of stdio, url or transport, got none.');
    expect(build({ ...stdio, url: 'http://x' })).toThrow('give exactly one of stdio, url or transport, got stdio and url.');
    expect(build({ stdio: { command: '' } })).toThrow(/stdio.command must be the program to start/);
    expect(build({ stdio: { command: 'node', args: 'server.js' } })).toThrow('stdio.args must be an array of strings.');
    expect(build({ stdio: { command: 'node', env: { A: 1 } } })).toThrow('stdio.env must map variable names to string values.');
    expect(build({ ...stdio, headers: { a: 'b' } })).toThrow(/headers apply to servers reached by url/);
    expect(build({ url: '/mcp' })).toThrow('url must be an absolute http(s) URL such as "http://127.0.0.1:3001/mcp", got "/mcp".');
    expect(build({ url: 'ftp://host/mcp' })).toThrow('url must use http or https, got "ftp:"; for other transports pass {transport}.');
    expect(build({ url: 'http://h/mcp', headers: { 'mcp-session-id': 'x' } })).toThrow(/the header "mcp-session-id" is set by the MCP transport itself/);
    expect(build({ url: 'http://h/mcp', protocol: 'websocket' })).toThrow('protocol must be "auto", "streamable-http" or "sse", got "websocket".');
    expect(build({ transport: 42 })).toThrow(/transport must be an MCP SDK Transport or a function returning a new one/);
  });

  it('refuses bad options', () => {
    expect(build(stdio, null)).toThrow('mcpToolset: options must be an object such as {prefix: "github"}, got null.');
    for (const timeoutMs of [0, -1, Number.NaN, '5'])
      expect(build(stdio, { timeoutMs })).toThrow(/timeoutMs must be a positive number, got .*; leave it out for 60000\./);
    expect(build(stdio, { maxSessions: 0 })).toThrow(/maxSessions must be a positive number/);
    expect(build(stdio, { requireConfirmation: 'yes' })).toThrow(/requireConfirmation must be true, false or a function/);
    expect(build(stdio, { inlineMedia: 'images' })).toThrow(/inlineMedia must be true, false or a function/);
    expect(build(stdio, { clientInfo: { name: 'x' } })).toThrow('clientInfo must be {name, version} strings.');
    expect(build(stdio, { prefix: '1bad' })).toThrow(/prefix must match/);
    expect(build(stdio, { toolFilter: 'get_sum' })).toThrow(/toolFilter must be a predicate/);
    expect(() => mcpResources({} as McpServerConfig)).toThrow('mcpResources "mcp_resources": give exactly one of stdio, url or transport, got none.');
  });
});
