import { replaceTool, type LlmRequest, type Tool } from '@adkit/flow';
import { ToolError, toFunctionName, wrapTool } from '@adkit/tool';
import { allowedToolName } from './parseAllowedTools.js';

/**
 * The tool names a list of outside tool names grants: each name as written (the part before any
 * `(…)` of an `allowed-tools` entry) and its function-name form (`toFunctionName`), so
 * `"Azure MCP/documentation"` also matches a tool named `Azure_MCP_documentation`.
 */
export function grantedToolNames(entries: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const entry of entries) {
    const name = allowedToolName(entry);
    if (!name) continue;
    names.add(name);
    names.add(toFunctionName(name).name);
  }
  return names;
}

/**
 * Replaces every tool in the request's dispatch table that `allowed` rejects with a stand-in that
 * keeps its name, declaration and options but answers each call with the error `message(name)`
 * (a `CALL_REJECTED` ToolError). Returns the names restricted. The model still sees the tools.
 */
export function restrictTools(request: LlmRequest, allowed: (name: string, tool: Tool) => boolean, message: (name: string) => string): string[] {
  const refused: string[] = [];
  for (const [name, tool] of Object.entries(request.tools)) {
    if (allowed(name, tool)) continue;
    replaceTool(request, name, refusingTool(tool, message(name)));
    refused.push(name);
  }
  return refused;
}

/** The tool, except that `run` and `runStream` throw; every other member is the tool's (`wrapTool`). */
function refusingTool(tool: Tool, message: string): Tool {
  const refuse = () => new ToolError(message, { code: 'CALL_REJECTED', toolName: tool.name });
  const overrides: Record<string, unknown> = {};
  if (typeof (tool as { run?: unknown }).run === 'function')
    overrides.run = async () => {
      throw refuse();
    };
  if (typeof (tool as { runStream?: unknown }).runStream === 'function')
    overrides.runStream = async function* () {
      throw refuse();
    };
  return wrapTool(tool, { overrides });
}
