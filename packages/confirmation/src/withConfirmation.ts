import { ConfigError, isRunnableTool, isStreamingTool, type Tool, type ToolContext, type Toolset } from '@adkit/flow';
import { confirmationGate, wrapTool, wrapToolset, type StreamingTool, type ToolOverrides } from '@adkit/tool';

/** Decides per call whether the user must confirm it; gets the raw arguments (HC-11). */
export type ConfirmationPredicate = (
  toolName: string,
  args: Record<string, unknown>,
  context: ToolContext,
) => boolean | Promise<boolean>;

/** Options of `withConfirmation`. */
export interface WithConfirmationOptions {
  /**
   * `true` (the default) gates every call, `false` none; a predicate decides per call. The same
   * option name as `functionTool({requireConfirmation})` and `mcpToolset(…, {requireConfirmation})`;
   * a toolset's predicate also gets the tool's name.
   */
  requireConfirmation?: boolean | ConfirmationPredicate;
  /**
   * @deprecated Renamed `requireConfirmation`, the name every package uses (CONTRIBUTING.md);
   * `require` still works in this release and is removed in the next one.
   */
  require?: boolean | ConfirmationPredicate;
}

/**
 * Wraps a toolset so every call of its tools asks the user first (HC-2, HC-11): plain tools, and
 * streaming tools too — a streaming call asks before its first chunk and, once approved, streams
 * as before. (ADK Go leaves streaming tools ungated, which surprises anyone who wrapped a toolset
 * to have every call approved; adkit gates them on purpose.) Tools that the toolset or a tool
 * registers in `processRequest` are gated the same way. Each wrapped tool keeps every other
 * capability of the original (`wrapTool`), and the toolset keeps its name, `close` and
 * `processRequest` (`wrapToolset`).
 *
 * ```ts
 * new LlmAgent({ ..., toolsets: [withConfirmation(opsTools, { requireConfirmation: (name) => name !== 'status' })] })
 * ```
 */
export function withConfirmation(toolset: Toolset, options: WithConfirmationOptions = {}): Toolset {
  if (!toolset || typeof toolset.tools !== 'function')
    throw new ConfigError('withConfirmation needs a toolset (an object with name and tools(ctx)) as its first argument.');
  if (options === null || typeof options !== 'object')
    throw new ConfigError(`withConfirmation(${toolset.name}): the options must be an object such as {requireConfirmation: true}, got ${options === null ? 'null' : typeof options}.`);
  const given = Object.hasOwn(options, 'requireConfirmation') ? options.requireConfirmation : options.require;
  if (Object.hasOwn(options, 'requireConfirmation') && Object.hasOwn(options, 'require') && options.require !== options.requireConfirmation)
    throw new ConfigError(`withConfirmation(${toolset.name}): give requireConfirmation only (require is its old name).`);
  const require = given === undefined ? true : given;
  if (typeof require !== 'boolean' && typeof require !== 'function')
    throw new ConfigError(
      `withConfirmation(${toolset.name}): requireConfirmation must be true, false or a function (toolName, args, ctx) => boolean, got ${typeof require}.`,
    );
  const needs: ConfirmationPredicate = typeof require === 'function' ? require : () => require;
  const gate = (tool: Tool): Tool => confirmedTool(tool, needs);
  return wrapToolset(toolset, { tools: (tools) => tools.map(gate), wrapRegistered: gate });
}

/** One tool behind the HC-2 gate: `run` and `runStream` ask first; everything else is the tool's. */
function confirmedTool(inner: Tool, needs: ConfirmationPredicate): Tool {
  const overrides: ToolOverrides = {};
  if (isRunnableTool(inner))
    overrides.run = async (context, args) => {
      await confirmationGate(context, inner.name, () => needs(inner.name, args, context));
      return inner.run(context, args);
    };
  if (isStreamingTool(inner)) overrides.runStream = (context, args) => confirmedStream(inner, needs, context, args);
  return wrapTool(inner, { overrides, wrapRegistered: (registered) => confirmedTool(registered, needs) });
}

/** The gate, then the tool's stream unchanged (leaving early closes the tool's stream too). */
async function* confirmedStream(
  inner: StreamingTool,
  needs: ConfirmationPredicate,
  context: ToolContext,
  args: Record<string, unknown>,
): AsyncGenerator<string, void, undefined> {
  await confirmationGate(context, inner.name, () => needs(inner.name, args, context));
  yield* inner.runStream(context, args);
}
