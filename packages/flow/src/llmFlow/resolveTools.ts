import { errorMessage } from '../errors.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import type { ReadonlyContext } from '../context/readonlyContext.js';
import type { Tool, Toolset } from '../tools/tool.js';

/** The tools of one agent run: the agent's tools, then each toolset's, in order (FL-2). */
export interface ResolvedTools {
  tools: readonly Tool[];
  toolsets: readonly Toolset[];
}

/**
 * Resolves an agent's tools once per agent run and caches them, so a toolset (an MCP server,
 * say) is listed once per run, not once per step.
 */
export class ToolResolver {
  private resolved?: Promise<ResolvedTools>;

  constructor(private readonly agent: LlmAgent) {}

  resolve(context: ReadonlyContext): Promise<ResolvedTools> {
    this.resolved ??= this.load(context);
    return this.resolved;
  }

  private async load(context: ReadonlyContext): Promise<ResolvedTools> {
    const tools: Tool[] = [...this.agent.tools];
    for (const toolset of this.agent.toolsets) {
      try {
        tools.push(...(await toolset.tools(context)));
      } catch (error) {
        throw new Error(`failed to extract tools from the tool set "${toolset.name}": ${errorMessage(error)}`, {
          cause: error,
        });
      }
    }
    return { tools, toolsets: this.agent.toolsets };
  }
}
