import { AdkitError } from '../errors.js';
import type { LlmRequest } from '../model/llmRequest.js';
import type { RunnableTool, StreamingTool } from './tool.js';

/**
 * Registers a tool in the request's dispatch table and advertises its declaration (PK-1):
 * a duplicate name is refused; declarations collect into the first function-declarations entry;
 * a tool without a declaration is callable but not advertised.
 */
export function packTool(request: LlmRequest, tool: RunnableTool | StreamingTool): void {
  if (Object.hasOwn(request.tools, tool.name))
    throw new AdkitError(
      'DUPLICATE_TOOL',
      `duplicate tool: "${tool.name}". Two tools or toolsets of the agent expose this name; rename one, or give a toolset a prefix.`,
    );
  (request.tools as Record<string, RunnableTool | StreamingTool>)[tool.name] = tool;
  const declaration = tool.declaration();
  if (!declaration) return;
  const entries = (request.config.tools ??= []);
  const group = entries.find((entry) => entry.functionDeclarations !== undefined);
  if (group) group.functionDeclarations!.push(declaration);
  else entries.push({ functionDeclarations: [declaration] });
}
