// mcpResources: list_resources / read_resource over the real server-everything (sharing the
// toolset's connection) and SDK-built servers. Bad input tried: a uri the server does not have, a
// missing uri, a cursor that is not a string, a server without resources, a wrapped toolset.
import { createLlmRequest, type ToolContext, responsePartsOf } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { withConfirmation } from '@adkit/confirmation';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpResources, mcpToolset, type McpTool, type McpToolset } from '../src/index.js';
import { PNG } from './support/callServer.js';
import { EVERYTHING, childProcesses, nodeServer } from './support/realServers.js';
import { inMemoryServer } from './support/sdkServers.js';

const ctx = (): ToolContext => createToolContext();

describe('mcpResources over server-everything (shared connection)', { timeout: 20_000 }, () => {
  let toolset: McpToolset;
  let list: McpTool;
  let read: McpTool;
  beforeAll(async () => {
    toolset = mcpToolset(nodeServer(EVERYTHING, ['stdio']));
    [list, read] = (await mcpResources(toolset).tools(ctx())) as McpTool[];
  });
  afterAll(() => toolset.close());

  it('lists the resources and templates, over the toolset\'s one server process', async () => {
    expect([list.name, read.name]).toEqual(['list_resources', 'read_resource']);
    await toolset.tools(ctx());
    const answer = await list.run(ctx(), {});
    expect((answer!.resources as { uri: string }[]).map((resource) => resource.uri)).toEqual(
      ['architecture', 'extension', 'features', 'how-it-works', 'instructions', 'startup', 'structure'].map(
        (name) => `demo://resource/static/document/${name}.md`,
      ),
    );
    expect((answer!.resourceTemplates as { uriTemplate: string }[]).map((template) => template.uriTemplate)).toEqual([
      'demo://resource/dynamic/text/{resourceId}',
      'demo://resource/dynamic/blob/{resourceId}',
    ]);
    expect(childProcesses(EVERYTHING)).toHaveLength(1);
  });

  it('reads a text resource, and a text blob decoded', async () => {
    expect(((await read.run(ctx(), { uri: 'demo://resource/static/document/architecture.md' }))!.output as string).split('\n')[0]).toBe(
      '[MCP embedded resource: uri="demo://resource/static/document/architecture.md", mimeType="text/markdown"]',
    );
    expect((await read.run(ctx(), { uri: 'demo://resource/dynamic/blob/1' }))!.output).toMatch(
      /^\[MCP embedded resource: uri="demo:\/\/resource\/dynamic\/blob\/1", mimeType="text\/plain"\]\nResource 1: This is a base64 blob created at /,
    );
  });

  it('bad uris and arguments are errors for the model', async () => {
    await expect(read.run(ctx(), { uri: 'demo://nope' })).rejects.toMatchObject({
      code: 'MCP_CALL_FAILED',
      message: 'failed to read MCP resource "demo://nope": MCP error -32602: MCP error -32602: Resource demo://nope not found',
    });
    await expect(read.run(ctx(), {})).rejects.toMatchObject({ code: 'INVALID_ARGUMENTS' });
    await expect(list.run(ctx(), { cursor: 7 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENTS' });
  });
});

describe('mcpResources over SDK-built servers', () => {
  it('#30: an image resource travels beside the result as a response part, which inlineMedia keeps for the next request; the cursor pages on', async () => {
    const server = new McpServer({ name: 'pictures', version: '1.0.0' });
    for (let i = 1; i <= 3; i++)
      server.registerResource(`pic${i}`, `pic://${i}`, { mimeType: 'image/png' }, async (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG }],
      }));
    const resources = mcpResources(inMemoryServer(() => server));
    const [list, read] = (await resources.tools(ctx())) as McpTool[];
    expect(((await list!.run(ctx(), {}))!.resources as unknown[]).length).toBe(3);
    const result = await read!.run(createToolContext({ functionCallId: 'r1' }), { uri: 'pic://2' });
    expect(result).toEqual({ output: `[MCP embedded resource: uri="pic://2"]\n[MCP image: mimeType="image/png", size=${Buffer.from(PNG, 'base64').length} bytes]` });
    expect(responsePartsOf(result)).toEqual([{ inlineData: { mimeType: 'image/png', data: PNG } }]);
    const request = createLlmRequest({
      model: 'gemini-2.5-flash',
      contents: [
        { role: 'model', parts: [{ functionCall: { id: 'r1', name: 'read_resource', args: { uri: 'pic://2' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'r1', name: 'read_resource', response: result, parts: [...responsePartsOf(result)!] } }] },
      ],
    });
    Object.assign(request.tools, { read_resource: read });
    await resources.processRequest(createToolContext(), request);
    expect(request.contents[1]!.parts![0]!.functionResponse!.parts).toEqual([{ inlineData: { mimeType: 'image/png', data: PNG } }]);
    await resources.close();
  });

  it('a server without resources gives no tools; a wrapped toolset is refused with the fix', async () => {
    const toolsOnly = () => {
      const server = new McpServer({ name: 'tools-only', version: '1.0.0' });
      server.registerTool('ping', { description: 'Pong.' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
      return server;
    };
    const resources = mcpResources(inMemoryServer(toolsOnly));
    expect(await resources.tools(ctx())).toEqual([]);
    await resources.close();
    const toolset = mcpToolset(inMemoryServer(toolsOnly));
    expect(() => mcpResources(withConfirmation(toolset, { require: true }) as McpToolset)).toThrow(
      'mcpResources "mcp_resources": pass the toolset mcpToolset returned (not a wrapped one), or the server config itself.',
    );
  });
});
