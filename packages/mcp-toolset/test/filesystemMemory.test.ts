// The real @modelcontextprotocol/server-filesystem (on a temp folder) and server-memory (with
// MEMORY_FILE_PATH in a temp folder), over stdio. Bad input tried: a path outside the allowed
// folder, a "../" escape, arguments of the wrong shape.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpToolset, type McpTool, type McpToolset } from '../src/index.js';
import { FILESYSTEM, MEMORY, nodeServer } from './support/realServers.js';

const ctx = (): ToolContext => createToolContext();
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'adkit-mcp-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function toolMap(toolset: McpToolset): Promise<Map<string, McpTool>> {
  return new Map(((await toolset.tools(ctx())) as McpTool[]).map((tool) => [tool.name, tool]));
}

describe('server-filesystem over stdio on a temp folder', { timeout: 20_000 }, () => {
  let toolset: McpToolset;
  let tools: Map<string, McpTool>;
  beforeAll(async () => {
    writeFileSync(join(dir, 'notes.txt'), 'line one\nline two\nline three\n');
    toolset = mcpToolset(nodeServer(FILESYSTEM, [dir]));
    tools = await toolMap(toolset);
  });
  afterAll(() => toolset.close());

  it('lists its 14 tools, each with an output schema', () => {
    expect(tools.size).toBe(14);
    expect([...tools.values()].every((tool) => tool.declaration().responseJsonSchema !== undefined)).toBe(true);
  });

  it('reads a file inside the folder: the structured content', async () => {
    expect(await tools.get('read_text_file')!.run(ctx(), { path: join(dir, 'notes.txt'), head: 2 })).toEqual({
      output: { content: 'line one\nline two' },
    });
  });

  it('writes a file the test then reads from disk', async () => {
    await tools.get('write_file')!.run(ctx(), { path: join(dir, 'out.txt'), content: 'written by the model' });
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('written by the model');
  });

  it('a path outside the folder is an error for the model, with the server text', async () => {
    await expect(tools.get('read_text_file')!.run(ctx(), { path: '/etc/hostname' })).rejects.toMatchObject({
      code: 'MCP_TOOL_ERROR',
      message: 'Tool execution failed. Details: Access denied - path outside allowed directories: /etc/hostname not in ' + dir,
    });
    await expect(tools.get('read_text_file')!.run(ctx(), { path: join(dir, '..', '..', 'etc', 'passwd') })).rejects.toThrow(
      /^Tool execution failed\. Details: Access denied - path outside allowed directories/,
    );
    await expect(tools.get('read_text_file')!.run(ctx(), {})).rejects.toThrow(/MCP error -32602: Input validation error/);
  });
});

describe('server-memory over stdio with MEMORY_FILE_PATH', { timeout: 20_000 }, () => {
  const memoryFile = join(dir, 'memory.jsonl');
  let toolset: McpToolset;
  let tools: Map<string, McpTool>;
  beforeAll(async () => {
    toolset = mcpToolset(nodeServer(MEMORY, [], { MEMORY_FILE_PATH: memoryFile }));
    tools = await toolMap(toolset);
  });
  afterAll(() => toolset.close());

  it('creates an entity, finds it again, and keeps it in the given file', async () => {
    expect(tools.size).toBe(9);
    const entity = { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] };
    expect(await tools.get('create_entities')!.run(ctx(), { entities: [entity] })).toEqual({ output: { entities: [entity] } });
    expect(await tools.get('search_nodes')!.run(ctx(), { query: 'program' })).toEqual({
      output: { entities: [entity], relations: [] },
    });
    expect(readFileSync(memoryFile, 'utf8')).toContain('"name":"Ada"');
  });

  it('arguments of the wrong shape are an error for the model', async () => {
    await expect(tools.get('create_entities')!.run(ctx(), { entities: 'not-an-array' })).rejects.toMatchObject({
      code: 'MCP_TOOL_ERROR',
      message: expect.stringMatching(/^Tool execution failed\. Details: MCP error -32602: Input validation error/),
    });
  });
});
