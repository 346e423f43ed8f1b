import { isRequestProcessor } from '@adkit/flow';
import type { Toolset } from '@adkit/flow';
import { assertToolset, delegatingToolset } from './delegatingToolset.js';
import { assertPrefix, prefixTool, processPrefixed } from './prefixTool.js';

/**
 * The toolset with every tool renamed `<prefix>_<name>` (name and declaration), so two toolsets
 * with a `search` tool can serve one agent. Calls reach the original tools; the toolset keeps its
 * name, and its own `processRequest` (if any) has what it registers prefixed too.
 *
 * ```ts
 * new LlmAgent({ ..., toolsets: [prefixToolset(githubMcp, 'github'), prefixToolset(jiraMcp, 'jira')] })
 * ```
 */
export function prefixToolset(toolset: Toolset, prefix: string): Toolset {
  assertToolset('prefixToolset', toolset);
  assertPrefix(`prefixToolset("${toolset.name}")`, prefix);
  return delegatingToolset(
    toolset,
    async (ctx) => (await toolset.tools(ctx)).map((tool) => prefixTool(tool, prefix)),
    isRequestProcessor(toolset) ? (ctx, request) => processPrefixed(toolset, prefix, ctx, request) : undefined,
  );
}
