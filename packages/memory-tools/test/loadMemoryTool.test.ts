// BT-3: load_memory's declaration, instruction, result and errors. Bad input tried: no query, a
// query that is not a string, an empty query, a memory service that throws or answers without
// memories, no memory service, and the tool registered twice.
import { createLlmRequest, InMemoryMemoryService, type MemoryService } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { LOAD_MEMORY_INSTRUCTION, loadMemoryTool } from '../src/index.js';

const memoryOf = (searchMemory: MemoryService['searchMemory']): MemoryService => ({ addSessionToMemory: async () => {}, searchMemory });

describe('load_memory (BT-3)', () => {
  it('BT-3: declares load_memory(query: string), query required', () => {
    expect(loadMemoryTool.declaration()).toEqual({
      name: 'load_memory',
      description: 'Loads the memory for the current user.',
      parametersJsonSchema: {
        type: 'object',
        properties: { query: { type: 'string', description: 'The query to search memory for.' } },
        required: ['query'],
      },
    });
  });

  it('BT-3: every request gets the tool and the memory instruction', async () => {
    const request = createLlmRequest();
    await loadMemoryTool.processRequest(createToolContext(), request);
    expect(Object.keys(request.tools)).toEqual(['load_memory']);
    expect(request.config.tools).toEqual([{ functionDeclarations: [loadMemoryTool.declaration()] }]);
    expect(request.config.systemInstruction).toEqual({
      role: 'user',
      parts: [
        {
          text:
            'You have memory. You can use it to answer questions. If any questions need\n' +
            'you to look up the memory, you should call load_memory function with a query.',
        },
      ],
    });
    expect(LOAD_MEMORY_INSTRUCTION).toBe(request.config.systemInstruction!.parts![0]!.text);
    await expect(loadMemoryTool.processRequest(createToolContext(), request)).rejects.toThrow('duplicate tool: "load_memory"');
  });

  it('BT-3: answers {memories} with the search result, the time as RFC 3339', async () => {
    const queries: string[] = [];
    const memory = memoryOf(async ({ query }) => {
      queries.push(query);
      return {
        memories: [
          { id: 'e1', author: 'user', timestamp: Date.UTC(2025, 5, 1, 12, 0, 0), content: { role: 'user', parts: [{ text: 'My dog is Rex.' }] } },
          { content: { parts: [{ text: 'no id' }] }, customMetadata: { source: 'import' } },
        ],
      };
    });
    expect(await loadMemoryTool.run(createToolContext({ memoryService: memory }), { query: 'dog' })).toEqual({
      memories: [
        { id: 'e1', author: 'user', timestamp: '2025-06-01T12:00:00Z', content: { role: 'user', parts: [{ text: 'My dog is Rex.' }] } },
        { content: { parts: [{ text: 'no id' }] }, customMetadata: { source: 'import' } },
      ],
    });
    expect(queries).toEqual(['dog']);
  });

  it('BT-3: no memories found (or a service answering without a list) gives an empty list', async () => {
    expect(await loadMemoryTool.run(createToolContext({ memoryService: new InMemoryMemoryService() }), { query: 'x' })).toEqual({ memories: [] });
    const sloppy = memoryOf(async () => ({}) as { memories: [] });
    expect(await loadMemoryTool.run(createToolContext({ memoryService: sloppy }), { query: 'x' })).toEqual({ memories: [] });
    expect(await loadMemoryTool.run(createToolContext({ memoryService: new InMemoryMemoryService() }), { query: '' })).toEqual({ memories: [] });
  });

  it('BT-3: a failing search, or no memory service, is an error the model reads', async () => {
    const broken = memoryOf(async () => {
      throw new Error('index offline');
    });
    await expect(loadMemoryTool.run(createToolContext({ memoryService: broken }), { query: 'dog' })).rejects.toMatchObject({
      name: 'ToolError',
      message: 'failed to search memory: index offline',
    });
    await expect(loadMemoryTool.run(createToolContext(), { query: 'dog' })).rejects.toThrow(
      'failed to search memory: memory service is not set; pass memoryService to the Runner (InMemoryRunner has one).',
    );
  });

  it('BT-3: a missing or non-string query is refused before searching, naming the field', async () => {
    let searched = false;
    const memory = memoryOf(async () => ((searched = true), { memories: [] }));
    await expect(loadMemoryTool.run(createToolContext({ memoryService: memory }), {})).rejects.toMatchObject({
      code: 'INVALID_ARGUMENTS',
      message: expect.stringContaining('query'),
    });
    await expect(loadMemoryTool.run(createToolContext({ memoryService: memory }), { query: { $ne: null } })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENTS',
    });
    expect(searched).toBe(false);
  });
});
