import { isRunnableTool, type ReadonlyContext, type Tool } from '@adkit/flow';
import { wrapTool } from '@adkit/tool';
import { isUnauthorized, type McpOAuth } from './mcpAuth.js';
import { McpAuthorizeTool } from './mcpAuthorizeTool.js';

/**
 * Lists an MCP server behind OAuth for the run's user (`list` lists with the user's token, or
 * fails with a 401 or `MCP_CONSENT_NEEDED`): a refused token is refreshed once; with no usable
 * credential the listing is the one `authorize_<toolset>` tool (kept undeclared once authorized). Each listed tool calls with the
 * user's current token (listing again, from the session's cache, after a refresh), refreshes once
 * on a 401, and pauses for consent when that fails too.
 */
export async function authorizedListing(
  oauth: McpOAuth,
  toolsetName: string,
  ctx: ReadonlyContext,
  list: (ctx: ReadonlyContext, forceRefresh: boolean) => Promise<Tool[]>,
): Promise<Tool[]> {
  let tools: Tool[];
  try {
    tools = await list(ctx, false);
  } catch (error) {
    if (!isUnauthorized(error)) throw error;
    try {
      tools = await list(ctx, true);
    } catch (again) {
      if (!isUnauthorized(again)) throw again;
      return [new McpAuthorizeTool(toolsetName, oauth)];
    }
  }
  const wrapped = tools.map((tool) =>
    isRunnableTool(tool)
      ? wrapTool(tool, {
          overrides: {
            run: (callCtx, args) =>
              oauth.authorized(callCtx, async () => {
                const current = (await list(callCtx, false)).find((listed) => listed.name === tool.name);
                if (!current || !isRunnableTool(current)) throw new Error(`Tool "${tool.name}" is no longer offered by the MCP server.`);
                return current.run(callCtx, args);
              }),
          },
        })
      : tool,
  );
  // Undeclared: the model no longer sees it, but a call of it paused for this consent resumes.
  return [...wrapped, new McpAuthorizeTool(toolsetName, oauth, false)];
}
