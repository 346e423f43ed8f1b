// The tool list (MCP-5, MCP-6): pages, the cache and list_changed, renamed names. SDK-built
// servers in memory. Bad input tried: a cursor that loops, a connection lost between pages,
// names with "/", spaces, a leading digit, 80 characters, "__proto__" and duplicates.
import type { Logger } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { mcpToolset, type McpTool } from '../src/index.js';
import { inMemoryServer } from './support/sdkServers.js';
import { waitFor } from './support/waitFor.js';

interface PagedServer {
  cursors: (string | undefined)[];
  calls: string[];
  /** Called on each page request with the connection number (1 for the first). */
  onPage?: (cursor: string | undefined, server: Server, connection: number) => void | Promise<void>;
}

/** A low-level server listing `pages` of tools, `nextCursor` = the next page's index. */
function pagedServer(pages: string[][], state: PagedServer, nextCursor = (index: number) => String(index + 1)) {
  let connection = 0;
  return () => {
    const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
    const number = ++connection;
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      const cursor = request.params?.cursor;
      state.cursors.push(cursor);
      await state.onPage?.(cursor, server, number);
      const index = cursor === undefined ? 0 : Math.min(Number(cursor) || 1, pages.length - 1);
      const tools = pages[index]!.map((name) => ({ name, description: `tool ${name}`, inputSchema: { type: 'object' as const } }));
      return index + 1 < pages.length ? { tools, nextCursor: nextCursor(index) } : { tools };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      state.calls.push(request.params.name);
      return { content: [{ type: 'text', text: `called ${request.params.name}` }] };
    });
    return server;
  };
}

const ctx = (logger?: Logger) => createToolContext(logger ? { logger } : {});

describe('pagination (MCP-5)', () => {
  it('follows nextCursor page by page and keeps the server order', async () => {
    const state: PagedServer = { cursors: [], calls: [] };
    const toolset = mcpToolset(inMemoryServer(pagedServer([['a', 'b'], ['c'], ['d', 'e']], state)));
    expect((await toolset.tools(ctx())).map((tool) => tool.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(state.cursors).toEqual([undefined, '1', '2']);
    await toolset.close();
  });

  it('refuses a cursor that comes back instead of looping forever', async () => {
    const state: PagedServer = { cursors: [], calls: [] };
    const toolset = mcpToolset(inMemoryServer(pagedServer([['a'], ['b'], ['c']], state, () => 'again')));
    await expect(toolset.tools(ctx())).rejects.toThrow(
      'failed to list MCP tools: the server sent the cursor "again" twice; its pagination loops',
    );
    await toolset.close();
  });

  it('a connection lost between pages restarts the listing from the first page, once', async () => {
    const state: PagedServer = {
      cursors: [],
      calls: [],
      onPage: async (cursor, server, connection) => {
        if (connection === 1 && cursor === '1') await server.close(); // the server goes away mid-listing
      },
    };
    const server = inMemoryServer(pagedServer([['a'], ['b'], ['c']], state));
    const toolset = mcpToolset(server);
    expect((await toolset.tools(ctx())).map((tool) => tool.name)).toEqual(['a', 'b', 'c']);
    expect(state.cursors).toEqual([undefined, '1', undefined, '1', '2']);
    expect(server.connects).toBe(2);
    await toolset.close();
  });

  it('a connection lost again after the reconnect is reported, not retried forever', async () => {
    const state: PagedServer = {
      cursors: [],
      calls: [],
      onPage: async (cursor, server) => {
        if (cursor === '1') await server.close();
      },
    };
    const toolset = mcpToolset(inMemoryServer(pagedServer([['a'], ['b']], state)));
    await expect(toolset.tools(ctx())).rejects.toThrow(
      /^failed to list MCP tools: connection lost again after reconnection: MCP error -32000: Connection closed/,
    );
    await toolset.close();
  });
});

describe('the cached list and list_changed', () => {
  it('lists once, and again after notifications/tools/list_changed', async () => {
    const state: PagedServer = { cursors: [], calls: [] };
    const pages = [['a']];
    const server = inMemoryServer(pagedServer(pages, state));
    const toolset = mcpToolset(server);
    const first = await toolset.tools(ctx());
    expect(await toolset.tools(ctx())).toBe(first); // cached: same tools, no request
    expect(state.cursors).toHaveLength(1);

    pages[0] = ['a', 'b'];
    await (server.servers[0] as Server).sendToolListChanged();
    await waitFor(async () => (await toolset.tools(ctx())).length === 2);
    expect((await toolset.tools(ctx())).map((tool) => tool.name)).toEqual(['a', 'b']);
    expect(state.cursors).toHaveLength(2);
    await toolset.close();
  });

  it('an McpServer registering a tool after connecting is seen on the next listing', async () => {
    let live: McpServer | undefined;
    const toolset = mcpToolset(
      inMemoryServer(() => {
        live = new McpServer({ name: 'growing', version: '1.0.0' });
        live.registerTool('first', { description: 'First.' }, async () => ({ content: [{ type: 'text', text: '1' }] }));
        return live;
      }),
    );
    expect((await toolset.tools(ctx())).map((tool) => tool.name)).toEqual(['first']);
    live!.registerTool('second', { description: 'Second.' }, async () => ({ content: [{ type: 'text', text: '2' }] }));
    await waitFor(async () => (await toolset.tools(ctx())).length === 2);
    const second = (await toolset.tools(ctx()))[1] as McpTool;
    expect(await second.run(createToolContext(), {})).toEqual({ output: '2' });
    await toolset.close();
  });
});

describe('tool names (MCP-6)', () => {
  it('renames names that are not valid function names, warns on ctx.logger, and calls the server with the original', async () => {
    const long = `tool_${'x'.repeat(80)}`;
    const state: PagedServer = { cursors: [], calls: [] };
    const names = ['search/web', 'search_web', 'read file', '1st', long, 'dup', 'dup', '__proto__'];
    const toolset = mcpToolset(inMemoryServer(pagedServer([names], state)));
    const warnings: string[] = [];
    const logger: Logger = { warn: (message) => void warnings.push(message), error: () => {} };
    const tools = (await toolset.tools(ctx(logger))) as McpTool[];
    const renamed = tools.map((tool) => tool.name);
    expect(renamed.slice(0, 4)).toEqual(['search_web_2', 'search_web', 'read_file', '_1st']);
    expect(renamed[4]).toMatch(/^tool_x{50}_[0-9a-f]{8}$/);
    expect(renamed.slice(5)).toEqual(['dup', 'dup_2', '__proto__']);
    expect(tools.map((tool) => tool.mcpName)).toEqual(names);
    expect(warnings).toEqual([
      'mcpToolset "mcp_tool_set": renamed "search/web" to "search_web_2": characters other than letters, digits, "_", "." and "-" became "_"; "search_web" was already taken',
      'mcpToolset "mcp_tool_set": renamed "read file" to "read_file": characters other than letters, digits, "_", "." and "-" became "_"',
      'mcpToolset "mcp_tool_set": renamed "1st" to "_1st": it must start with a letter or "_"',
      `mcpToolset "mcp_tool_set": renamed "${long}" to "${renamed[4]}": it was longer than 64 characters`,
      'mcpToolset "mcp_tool_set": renamed "dup" to "dup_2": "dup" was already taken',
    ]);
    expect(tools[0]!.declaration()!.name).toBe('search_web_2');
    expect(await tools[0]!.run(createToolContext(), {})).toEqual({ output: 'called search/web' });
    expect(await tools[6]!.run(createToolContext(), {})).toEqual({ output: 'called dup' });
    expect(state.calls).toEqual(['search/web', 'dup']);
    await toolset.close();
  });

  it('toolFilter sees the tools by name, prefix renames what the model sees (PK-5)', async () => {
    const state: PagedServer = { cursors: [], calls: [] };
    const toolset = mcpToolset(inMemoryServer(pagedServer([['a', 'b', 'c']], state)), { toolFilter: ['a', 'c'], prefix: 'srv' });
    const tools = await toolset.tools(ctx());
    expect(tools.map((tool) => tool.name)).toEqual(['srv_a', 'srv_c']);
    expect((tools[1] as McpTool).declaration()!.name).toBe('srv_c');
    expect(await (tools[1] as McpTool).run(createToolContext(), {})).toEqual({ output: 'called c' });
    await toolset.close();
  });
});
