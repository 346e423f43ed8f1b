import { appendInstructions, errorMessage, MemoryError } from '@adkit/flow';
import type { LlmRequest, RequestContext, RequestProcessor, Tool } from '@adkit/flow';
import { formatMemories } from './formatMemories.js';

/**
 * `preload_memory` (BT-4): before every model call, searches the user's memory with the text of
 * their message and adds what it finds to the system instruction as a `<PAST_CONVERSATIONS>`
 * block (formatted as BT-5 says). The model never calls it: it has no declaration and is never
 * registered. Nothing is added when the message does not start with text or nothing is found; a
 * failing search (no memory service included) fails the step with
 * `preload memory search failed: …`.
 *
 * ```ts
 * new LlmAgent({ name: 'assistant', model, tools: [preloadMemory] })
 * ```
 */
export const preloadMemory: Tool & RequestProcessor = {
  name: 'preload_memory',
  description: 'Preloads relevant memory for the current user.',
  async processRequest(ctx: RequestContext, request: LlmRequest): Promise<void> {
    const query = ctx.userContent?.parts?.[0]?.text;
    if (!query) return;
    let memories;
    try {
      ({ memories } = await ctx.searchMemory(query));
    } catch (error) {
      throw new MemoryError(`preload memory search failed: ${errorMessage(error)}`, { cause: error });
    }
    const text = formatMemories(memories ?? []);
    if (!text) return;
    appendInstructions(request, [
      'The following content is from your previous conversations with the user.\n' +
        "They may be useful for answering the user's current query.\n" +
        `<PAST_CONVERSATIONS>\n${text}\n</PAST_CONVERSATIONS>`,
    ]);
  },
};

/**
 * @deprecated Renamed `preloadMemory`: a ready-made tool is named after the tool, without a suffix;
 * `…Tool` and `…Toolset` mark functions that make one (CONTRIBUTING.md). This name still works in
 * this release and is removed in the next one.
 */
export const preloadMemoryTool = preloadMemory;
