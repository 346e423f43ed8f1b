import { ConfigError, isRequestProcessor, isToolset } from '@adkit/flow';
import type { LlmRequest, ReadonlyContext, Tool, Toolset } from '@adkit/flow';
import { defineMember, delegateMembers, processWrapped, type ProcessRequestContext } from './delegation.js';

/** How `wrapToolset` changes a toolset. */
export interface WrapToolsetOptions {
  /** Changes the list of tools (filter, rename, wrap each); the toolset's own list by default. */
  tools?: (tools: Tool[], ctx: ReadonlyContext) => Tool[] | Promise<Tool[]>;
  /** Renames what the toolset's `processRequest` registers and declares. */
  rename?: (name: string) => string;
  /** What becomes of the tools the toolset's `processRequest` registers. */
  wrapRegistered?: (tool: Tool) => Tool;
}

/**
 * The one way to wrap a toolset (`filterToolset`, `prefixToolset`, `withConfirmation` use it): the
 * wrapper keeps the toolset's name and every capability (`close`, `processRequest`, and whatever
 * the flow adds later), each calling the toolset; `tools` maps its list, and what its
 * `processRequest` registers is renamed and wrapped the same way as the listed tools.
 *
 * ```ts
 * const readOnly = wrapToolset(github, { tools: (tools) => tools.filter((t) => t.name.startsWith('get_')) });
 * ```
 */
export function wrapToolset(toolset: Toolset, options: WrapToolsetOptions = {}): Toolset {
  assertToolset('wrapToolset', toolset);
  const { tools: mapTools, rename, wrapRegistered } = options;
  const wrapper = delegateMembers(toolset);
  if (mapTools) defineMember(wrapper, 'tools', async (ctx: ReadonlyContext) => mapTools(await toolset.tools(ctx), ctx));
  if (isRequestProcessor(toolset) && (rename || wrapRegistered)) {
    const mapping = { rename, wrapRegistered };
    defineMember(wrapper, 'processRequest', (ctx: ProcessRequestContext, request: LlmRequest) =>
      processWrapped(toolset, ctx, request, mapping),
    );
  }
  return wrapper as unknown as Toolset;
}

/** Throws a `ConfigError` naming the fix unless the value is a toolset. */
export function assertToolset(owner: string, toolset: unknown): asserts toolset is Toolset {
  if (
    typeof toolset !== 'object' ||
    toolset === null ||
    typeof (toolset as Partial<Toolset>).name !== 'string' ||
    !isToolset(toolset as Toolset)
  )
    throw new ConfigError(
      `${owner}: expected a toolset ({name, tools(ctx)}), got ${toolset === null ? 'null' : typeof toolset}; pass the toolset to wrap.`,
    );
}
