import {
  ConfigError,
  isRequestProcessor,
  isRunnableTool,
  packTool,
  type LlmRequest,
  type ReadonlyContext,
  type RunnableTool,
  type Tool,
  type ToolContext,
  type Toolset,
} from '@adkit/flow';
import { confirmationGate } from '@adkit/tool';

/** Decides per call whether the user must confirm it; gets the raw arguments (HC-11). */
export type ConfirmationPredicate = (
  toolName: string,
  args: Record<string, unknown>,
  context: ToolContext,
) => boolean | Promise<boolean>;

export interface WithConfirmationOptions {
  /** `true` gates every call; a predicate decides per call. */
  require: boolean | ConfirmationPredicate;
}

/**
 * Wraps a toolset so its callable tools ask the user before running (HC-11). Streaming tools and
 * tools that only shape the request pass through unwrapped. The toolset keeps its name.
 */
export function withConfirmation(toolset: Toolset, options: WithConfirmationOptions): Toolset {
  if (!toolset || typeof toolset.tools !== 'function')
    throw new ConfigError('withConfirmation needs a toolset (an object with name and tools(ctx)) as its first argument.');
  const require = options?.require;
  if (typeof require !== 'boolean' && typeof require !== 'function')
    throw new ConfigError(
      `withConfirmation(${toolset.name}): require must be a boolean or a function (toolName, args, ctx) => boolean, got ${typeof require}.`,
    );
  const needs: ConfirmationPredicate = typeof require === 'function' ? require : () => require;

  const wrapped: Toolset & Partial<{ processRequest(ctx: ToolContext, request: LlmRequest): Promise<void> }> = {
    name: toolset.name,
    async tools(context: ReadonlyContext): Promise<Tool[]> {
      const tools = await toolset.tools(context);
      return tools.map((tool) => (isRunnableTool(tool) ? confirmedTool(tool, needs) : tool));
    },
    async close() {
      await toolset.close?.();
    },
  };
  if (isRequestProcessor(toolset))
    wrapped.processRequest = (context, request) => toolset.processRequest(context, request);
  return wrapped;
}

/** One tool behind the HC-2 gate; keeps name, description, long-running flag and declaration. */
function confirmedTool(inner: RunnableTool, needs: ConfirmationPredicate): RunnableTool {
  const wrapper: RunnableTool & { processRequest(ctx: ToolContext, request: LlmRequest): Promise<void> } = {
    name: inner.name,
    description: inner.description,
    isLongRunning: inner.isLongRunning,
    timeoutMs: inner.timeoutMs,
    declaration: () => inner.declaration(),
    async run(context, args) {
      await confirmationGate(context, inner.name, () => needs(inner.name, args, context));
      return inner.run(context, args);
    },
    async processRequest(context, request) {
      if (!isRequestProcessor(inner)) {
        packTool(request, wrapper);
        return;
      }
      const registeredBefore = Object.hasOwn(request.tools, inner.name);
      await inner.processRequest(context, request);
      // The inner tool registered itself: dispatch to the wrapper instead, so the gate runs.
      if (!registeredBefore && Object.hasOwn(request.tools, inner.name))
        (request.tools as Record<string, Tool>)[inner.name] = wrapper;
      else packTool(request, wrapper);
    },
  };
  return wrapper;
}
