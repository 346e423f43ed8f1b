import { setOwnProperty } from '../content/ownProperty.js';
import { AdkitError } from '../errors.js';
import type { LlmRequest } from '../model/llmRequest.js';
import type { RunnableTool, StreamingTool, Tool } from './tool.js';

/**
 * Registers a tool in the request's dispatch table and advertises its declaration (PK-1):
 * a duplicate name is refused; declarations collect into the first function-declarations entry;
 * a tool without a declaration is callable but not advertised.
 */
export function packTool(request: LlmRequest, tool: RunnableTool | StreamingTool): void {
  registerTool(request, tool);
  const declaration = tool.declaration();
  if (!declaration) return;
  const entries = (request.config.tools ??= []);
  const group = entries.find((entry) => entry.functionDeclarations !== undefined);
  if (group) group.functionDeclarations!.push(declaration);
  else entries.push({ functionDeclarations: [declaration] });
}

/**
 * Adds a tool to the request's dispatch table under `name` (its own name by default) without
 * declaring anything: the one way to write `request.tools`, for wrappers that declare separately
 * (`packTool` does both). A name already taken is refused with a `DUPLICATE_TOOL` error and the
 * table is left as it was.
 */
export function registerTool(request: LlmRequest, tool: Tool, name: string = tool.name): void {
  if (Object.hasOwn(request.tools, name))
    throw new AdkitError(
      'DUPLICATE_TOOL',
      `duplicate tool: "${name}". Two tools or toolsets of the agent expose this name; rename one, or give a toolset a prefix.`,
    );
  setOwnProperty(request.tools as Record<string, unknown>, name, tool);
}

/**
 * Puts `tool` in place of the tool registered under `name` in the request's dispatch table (a pack
 * that restricts or decorates what an earlier processor registered). Refuses a name that is not
 * registered, so it never adds a tool behind `registerTool`'s duplicate check.
 */
export function replaceTool(request: LlmRequest, name: string, tool: Tool): void {
  if (!Object.hasOwn(request.tools, name))
    throw new AdkitError('TOOL_ERROR', `replaceTool: no tool "${name}" is registered on this request; register it with registerTool first.`);
  setOwnProperty(request.tools as Record<string, unknown>, name, tool);
}
