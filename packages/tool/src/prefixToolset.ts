import type { Toolset } from '@adkit/flow';
import { assertPrefix, prefixed, prefixTool } from './prefixTool.js';
import { assertToolset, wrapToolset } from './wrapToolset.js';

/**
 * The toolset with every tool renamed `<prefix>_<name>` (name and declaration), so two toolsets
 * with a `search` tool can serve one agent. Calls reach the original tools; the toolset keeps its
 * name and capabilities, and its own `processRequest` (if any) has what it registers prefixed too.
 *
 * ```ts
 * new LlmAgent({ ..., toolsets: [prefixToolset(githubMcp, 'github'), prefixToolset(jiraMcp, 'jira')] })
 * ```
 */
export function prefixToolset(toolset: Toolset, prefix: string): Toolset {
  assertToolset('prefixToolset', toolset);
  assertPrefix(`prefixToolset("${toolset.name}")`, prefix);
  return wrapToolset(toolset, {
    tools: (tools) => tools.map((tool) => prefixTool(tool, prefix)),
    rename: prefixed(prefix),
    wrapRegistered: (tool) => prefixTool(tool, prefix),
  });
}
