import { ConfigError, isRequestProcessor, isToolset } from '@adkit/flow';
import type { LlmRequest, ReadonlyContext, Tool, ToolContext, Toolset } from '@adkit/flow';

/** Throws a `ConfigError` naming the fix unless the value is a toolset. */
export function assertToolset(owner: string, toolset: unknown): asserts toolset is Toolset {
  if (
    typeof toolset !== 'object' ||
    toolset === null ||
    typeof (toolset as Partial<Toolset>).name !== 'string' ||
    !isToolset(toolset as Toolset)
  )
    throw new ConfigError(
      `${owner}: expected a toolset ({name, tools(ctx)}), got ${toolset === null ? 'null' : typeof toolset}; pass the toolset to wrap.`,
    );
}

/**
 * A toolset with the inner toolset's name whose `tools` is replaced; `close` and (when the inner
 * toolset has one) `processRequest` are delegated.
 */
export function delegatingToolset(
  inner: Toolset,
  tools: (ctx: ReadonlyContext) => Promise<Tool[]>,
  processRequest: ((ctx: ToolContext, request: LlmRequest) => Promise<void>) | undefined = isRequestProcessor(inner)
    ? (ctx, request) => inner.processRequest(ctx, request)
    : undefined,
): Toolset {
  const wrapper: Toolset & { processRequest?: (ctx: ToolContext, request: LlmRequest) => Promise<void> } = {
    name: inner.name,
    tools,
    close: async () => {
      await inner.close?.();
    },
  };
  if (processRequest) wrapper.processRequest = processRequest;
  return wrapper;
}
