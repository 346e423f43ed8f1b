import { isRequestProcessor, isSelfPacking } from '@adkit/flow';
import { BaseTool } from './baseTool.js';
import type { FunctionDeclaration, LlmRequest, ResumableTool, RunnableTool, StreamingTool, Tool } from '@adkit/flow';
import { defineMember, delegateMembers, processWrapped, type ProcessRequestContext } from './delegation.js';

const TOOL_SETTINGS = ['description', 'isLongRunning', 'timeoutMs', 'idempotent'] as const;

/** Members a wrapper may replace; every member not given stays the wrapped tool's. */
export interface ToolOverrides {
  declaration?: () => FunctionDeclaration | undefined;
  run?: RunnableTool['run'];
  runStream?: StreamingTool['runStream'];
  resume?: ResumableTool['resume'];
}

/** How `wrapTool` changes a tool. */
export interface WrapToolOptions {
  /**
   * Renames the wrapper (`rename(tool.name)`) and its declaration; when the tool registers tools
   * or declares functions in `processRequest`, those are renamed the same way.
   */
  rename?: (name: string) => string;
  /** Replaces these members (give only the capabilities the tool has, e.g. `run` of a runnable tool). */
  overrides?: ToolOverrides;
  /** What becomes of the other tools the tool registers in `processRequest`; they are kept as is by default. */
  wrapRegistered?: (tool: Tool) => Tool;
}

/**
 * The one way to wrap a tool (`prefixTool`, `withConfirmation` and any pack's wrapper use it): the
 * wrapper has every capability of the tool — `run`, `runStream`, `processRequest`, `resume`,
 * `close`, `defersResponse`, `displayResultOnSkipSummarization`, `isLongRunning`, `timeoutMs`, and
 * whatever the flow adds later — each calling the tool, except the members `overrides` replaces
 * and the name `rename` changes. It has no capability the tool lacks. When the tool registers
 * itself in `processRequest` (as `BaseTool` does), the wrapper is what gets registered, so calls
 * go through the wrapper; a tool that keeps `BaseTool`'s `processRequest` (which only packs the
 * tool) gives a wrapper with that same one, packing the wrapper, unless `overrides` replaces `declaration`.
 *
 * ```ts
 * const audited = wrapTool(search, {
 *   overrides: { run: async (ctx, args) => { log(ctx.functionCallId, args); return search.run(ctx, args); } },
 * });
 * ```
 */
export function wrapTool<T extends Tool>(tool: T, options: WrapToolOptions = {}): T {
  const { rename, overrides = {}, wrapRegistered } = options;
  const wrapper = delegateMembers(tool);
  // The settings the flow reads are the tool's current ones, also when set after wrapping.
  for (const key of TOOL_SETTINGS)
    if (!Object.hasOwn(wrapper, key))
      Object.defineProperty(wrapper, key, { get: () => (tool as Record<string, unknown>)[key], enumerable: true, configurable: true });
  const name = rename ? rename(tool.name) : tool.name;
  defineMember(wrapper, 'name', name);
  const declared = tool as Partial<RunnableTool>;
  if (rename && typeof declared.declaration === 'function') {
    // A frozen declaration (a function tool's, returned every step) is renamed once, so that the
    // flow checks one object per tool, not a new copy every step (#24); the copy is frozen too.
    // One that may change in place is copied on every call, as it may have changed.
    let last: { source: FunctionDeclaration; renamed: FunctionDeclaration } | undefined;
    defineMember(wrapper, 'declaration', () => {
      const declaration = declared.declaration!.call(tool);
      if (!declaration) return undefined;
      if (!Object.isFrozen(declaration)) return { ...declaration, name };
      if (last?.source !== declaration) last = { source: declaration, renamed: Object.freeze({ ...declaration, name }) };
      return last.renamed;
    });
  }
  for (const [key, member] of Object.entries(overrides)) if (member !== undefined) defineMember(wrapper, key, member);
  const wrapped = wrapper as unknown as T;
  if (isRequestProcessor(tool)) {
    if (isSelfPacking(tool.processRequest) && overrides.declaration === undefined)
      // The tool only packs itself (BaseTool's processRequest): the wrapper does the same, under its
      // name with its declaration, which is what wrapping that processRequest would give, and lets
      // the flow pack it with the other such tools, in one go (#24).
      defineMember(wrapper, 'processRequest', BaseTool.prototype.processRequest);
    else {
      const mapping = { rename, wrapRegistered, self: { tool, wrapper: wrapped } };
      defineMember(wrapper, 'processRequest', (ctx: ProcessRequestContext, request: LlmRequest) =>
        processWrapped(tool, ctx, request, mapping),
      );
    }
  }
  return wrapped;
}
