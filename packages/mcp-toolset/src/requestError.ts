import { errorMessage, isAdkitError, type ToolContext } from '@adkit/flow';
import { ToolError } from '@adkit/tool';

/**
 * What the model reads when a request of a tool could not complete: cancelled (the run's
 * signal), timed out, cut by a broken connection (it may or may not have run), or failed
 * (`failed` + the reason, e.g. `failed to call MCP tool "x" with err: …`, MCP-7).
 */
export function requestError(ctx: ToolContext, toolName: string, timeoutMs: number, failed: string, error: unknown): ToolError {
  if (ctx.signal.aborted)
    return new ToolError(`The call to tool "${toolName}" was cancelled.`, { code: 'CANCELLED', toolName, cause: error });
  const code = (error as { code?: unknown } | null)?.code;
  if ((error as Error | null)?.name === 'McpError' && code === -32001)
    return new ToolError(`Tool "${toolName}" timed out after ${timeoutMs} ms.`, { code: 'TOOL_TIMEOUT', toolName, cause: error });
  if (isAdkitError(error) && error.code === 'MCP_CALL_INTERRUPTED')
    return new ToolError(
      `The connection to the MCP server broke during the call to tool "${toolName}" (${errorMessage(error)}); the call may or may not have run. Check its effect before calling it again; the next call reconnects.`,
      { code: 'MCP_CALL_INTERRUPTED', toolName, cause: error },
    );
  return new ToolError(`${failed}${errorMessage(error)}`, { code: 'MCP_CALL_FAILED', toolName, cause: error });
}
