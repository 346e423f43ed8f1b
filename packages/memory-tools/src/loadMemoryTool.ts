import { appendInstructions, errorMessage } from '@adkit/flow';
import type { FunctionDeclaration, LlmRequest, MemoryEntry, RequestContext, RequestProcessor, RunnableTool, ToolContext } from '@adkit/flow';
import { functionTool } from '@adkit/function-tool';
import { ToolError } from '@adkit/tool';
import Type from 'typebox';
import { rfc3339 } from './formatMemories.js';

/** The instruction `load_memory` adds to every request (BT-3). */
export const LOAD_MEMORY_INSTRUCTION =
  'You have memory. You can use it to answer questions. If any questions need\n' +
  'you to look up the memory, you should call load_memory function with a query.';

/** One memory as `load_memory` hands it to the model: the time as RFC 3339, absent fields left out. */
export interface LoadedMemory {
  id?: string;
  author?: string;
  timestamp?: string;
  content: MemoryEntry['content'];
  customMetadata?: Record<string, unknown>;
}

const search = functionTool({
  name: 'load_memory',
  description: 'Loads the memory for the current user.',
  parameters: Type.Object({ query: Type.String({ description: 'The query to search memory for.' }) }),
  execute: async ({ query }, ctx) => {
    let memories: readonly MemoryEntry[] | undefined;
    try {
      ({ memories } = await ctx.searchMemory(query));
    } catch (error) {
      throw new ToolError(`failed to search memory: ${errorMessage(error)}`, { toolName: 'load_memory', cause: error });
    }
    return { memories: (memories ?? []).map(loadedMemory) };
  },
});

function loadedMemory(entry: MemoryEntry): LoadedMemory {
  const loaded: LoadedMemory = { content: entry.content };
  if (entry.id !== undefined) loaded.id = entry.id;
  if (entry.author !== undefined) loaded.author = entry.author;
  const time = rfc3339(entry.timestamp);
  if (time !== undefined) loaded.timestamp = time;
  if (entry.customMetadata !== undefined) loaded.customMetadata = entry.customMetadata;
  return loaded;
}

/**
 * `load_memory` (BT-3): the model calls `load_memory({query})` and gets `{memories}`, the user's
 * memories matching the query (each `{id, author, timestamp, content, customMetadata}`, the time
 * as RFC 3339); every request also gets an instruction saying that memory exists. A failing search
 * answers `{error: "failed to search memory: …"}`.
 *
 * ```ts
 * new LlmAgent({ name: 'assistant', model, tools: [loadMemory] })
 * ```
 */
export const loadMemory: RunnableTool & RequestProcessor = {
  name: search.name,
  description: search.description,
  declaration(): FunctionDeclaration {
    return search.declaration();
  },
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    return search.run(ctx, args);
  },
  async processRequest(ctx: RequestContext, request: LlmRequest): Promise<void> {
    await search.processRequest(ctx, request);
    appendInstructions(request, [LOAD_MEMORY_INSTRUCTION]);
  },
};

/**
 * @deprecated Renamed `loadMemory`: a ready-made tool is named after the tool, without a suffix;
 * `…Tool` and `…Toolset` mark functions that make one (CONTRIBUTING.md). This name still works in
 * this release and is removed in the next one.
 */
export const loadMemoryTool = loadMemory;
