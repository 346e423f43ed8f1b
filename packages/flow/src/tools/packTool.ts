import { setOwnProperty } from '../content/ownProperty.js';
import { AdkitError } from '../errors.js';
import type { FunctionDeclaration } from '../content/content.js';
import type { LlmRequest } from '../model/llmRequest.js';
import type { RequestProcessor, RunnableTool, StreamingTool, Tool } from './tool.js';

/**
 * Registers a tool in the request's dispatch table and advertises its declaration (PK-1):
 * a duplicate name is refused; declarations collect into the first function-declarations entry;
 * a tool without a declaration is callable but not advertised.
 */
export function packTool(request: LlmRequest, tool: RunnableTool | StreamingTool): void {
  registerTool(request, tool);
  declareTool(request, tool);
}

/** Advertises the tool's declaration, if it has one, without registering it (the flow's half of `packTool`). */
export function declareTool(request: LlmRequest, tool: RunnableTool | StreamingTool): void {
  const declaration = tool.declaration();
  if (declaration) declarationList(request).push(declaration);
}

/** The request's function declarations: the first entry's that has them, or a new entry's. */
export function declarationList(request: LlmRequest): FunctionDeclaration[] {
  const entries = (request.config.tools ??= []);
  for (const entry of entries) if (entry.functionDeclarations !== undefined) return entry.functionDeclarations;
  const list: FunctionDeclaration[] = [];
  entries.push({ functionDeclarations: list });
  return list;
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

const selfPackers = new WeakSet<object>();

/**
 * Marks a `processRequest` implementation as one that only packs its own tool, exactly
 * `packTool(request, this)` (a `DUPLICATE_TOOL` refusal as a rejected promise), as `BaseTool`'s
 * does. The flow then packs such tools itself, the whole run of them at once, without calling it
 * each step (#24). Mark only a function that does nothing else: an override in a subclass is a
 * different function and is called as usual. Returns the function.
 */
export function markSelfPacking<F extends RequestProcessor['processRequest']>(processRequest: F): F {
  selfPackers.add(processRequest);
  return processRequest;
}

/** Whether the function was marked by `markSelfPacking`. */
export function isSelfPacking(processRequest: unknown): boolean {
  // Nearly every tool is a BaseTool: one comparison instead of a set lookup per tool per step.
  if (processRequest === lastSelfPacker) return true;
  if (typeof processRequest !== 'function' || !selfPackers.has(processRequest)) return false;
  lastSelfPacker = processRequest;
  return true;
}

let lastSelfPacker: unknown;
