import { AdkitError, ConfigError, errorMessage } from '@adkit/flow';
import type { ReadonlyContext, Tool, Toolset } from '@adkit/flow';
import { assertToolset, wrapToolset } from './wrapToolset.js';

/** Decides whether the model sees a tool (PK-5). It may be async, e.g. to look up permissions. */
export type ToolPredicate = (ctx: ReadonlyContext, tool: Tool) => boolean | Promise<boolean>;

/**
 * A toolset showing only the tools the predicate keeps (PK-5): same name, the inner toolset's
 * order, its errors passed on unchanged (the flow reports them with the toolset's name). The
 * toolset's other capabilities (`processRequest`, `close`, …) are kept (`wrapToolset`). Exposure is not authorization:
 * tools still check what they are allowed to do.
 *
 * ```ts
 * const readOnly = filterToolset(github, allowedTools(['get_issue', 'list_issues']));
 * ```
 */
export function filterToolset(toolset: Toolset, predicate: ToolPredicate): Toolset {
  assertToolset('filterToolset', toolset);
  if (typeof predicate !== 'function')
    throw new ConfigError(
      `filterToolset("${toolset.name}"): predicate must be a function (ctx, tool) => boolean, or allowedTools(['name', ...]); got ${predicate === null ? 'null' : typeof predicate}.`,
    );
  return wrapToolset(toolset, { tools: (tools, ctx) => keepTools(toolset.name, tools, predicate, ctx) });
}

/**
 * A predicate keeping the tools whose name is in the list (exact match, PK-5).
 *
 * ```ts
 * filterToolset(mcp, allowedTools(['search', 'fetch_page']))
 * ```
 */
export function allowedTools(names: readonly string[]): ToolPredicate {
  if (!Array.isArray(names) || names.some((name) => typeof name !== 'string'))
    throw new ConfigError(
      `allowedTools: expected an array of tool names such as ['search', 'fetch_page'], got ${names === null ? 'null' : Array.isArray(names) ? 'an array with a non-string entry' : typeof names}.`,
    );
  const allowed = new Set(names);
  return (_ctx, tool) => allowed.has(tool.name);
}

/** Runs the predicate over the tools in order; a failing predicate is reported with both names. */
export async function keepTools(
  toolsetName: string,
  tools: readonly Tool[],
  predicate: ToolPredicate,
  ctx: ReadonlyContext,
): Promise<Tool[]> {
  const kept: Tool[] = [];
  for (const tool of tools) {
    let keep: boolean;
    try {
      keep = await predicate(ctx, tool);
    } catch (error) {
      throw new AdkitError(
        'TOOLSET_ERROR',
        `toolset "${toolsetName}": the tool filter failed for tool "${tool.name}": ${errorMessage(error)}`,
        { cause: error },
      );
    }
    if (keep) kept.push(tool);
  }
  return kept;
}
