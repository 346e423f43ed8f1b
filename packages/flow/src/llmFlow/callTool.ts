import { isModelOutputMapper, type ModelView } from './modelOutput.js';
import { checkedResponseParts, responsePartsOf, type FunctionResponsePart } from '../content/responseParts.js';
import {
  firstOfChains,
  type AfterToolCallback,
  type BeforeToolCallback,
  type OnToolErrorCallback,
  type ToolResult,
} from '../runner/callbacks.js';
import { RunAbortedError } from './deadline.js';
import { errorMessage } from '../errors.js';
import type { Tool } from '../tools/tool.js';
import type { ToolContext } from '../context/toolContext.js';
import { toJsonValue } from '../content/toJsonValue.js';

/** The tool callbacks in force for a call: plugins' first, then the agent's (FL-13). */
export interface ToolCallbacks {
  before: { plugins: readonly BeforeToolCallback[]; agent: readonly BeforeToolCallback[] };
  after: { plugins: readonly AfterToolCallback[]; agent: readonly AfterToolCallback[] };
  onError: { plugins: readonly OnToolErrorCallback[]; agent: readonly OnToolErrorCallback[] };
}

/** A call's outcome before it becomes a function response. */
export interface ToolOutcome {
  result?: ToolResult;
  error?: unknown;
  /** The parts the tool put beside its result (`withResponseParts`), checked. */
  parts?: FunctionResponsePart[];
  /** What the model is sent instead, when the tool has `toModelOutput`. */
  modelView?: ModelView;
}

/** The checked parts a tool or callback put beside its result (`withResponseParts`), if any; a bad part throws. */
function partsBeside(toolName: string, value: unknown): FunctionResponsePart[] | undefined {
  const attached = responsePartsOf(value);
  if (attached === undefined) return undefined;
  const checked = checkedResponseParts(toolName, attached);
  if (checked instanceof Error) throw checked;
  return checked;
}

/**
 * Runs a tool between its callbacks (FL-13): a before-callback result skips the tool; an error
 * (from the tool or a before-callback) goes to the on-error callbacks, which may recover; the
 * after-callbacks see the outcome and may replace it. In every chain the plugins run first and
 * the first callback that returns a value wins. A cancelled run propagates as `RunAbortedError`.
 */
export async function callTool(
  tool: Tool,
  args: Record<string, unknown>,
  context: ToolContext,
  callbacks: ToolCallbacks,
  run: () => Promise<ToolResult | undefined>,
): Promise<ToolOutcome> {
  const base = { tool, args, context };
  // A throw of undefined or null is still a failure the model must hear about.
  const failure = (thrown: unknown) =>
    thrown === undefined || thrown === null ? new Error(`Tool "${tool.name}" failed: it threw ${String(thrown)}.`) : thrown;
  let result: ToolResult | undefined;
  let error: unknown;
  let failed = false;
  let parts: FunctionResponsePart[] | undefined;

  try {
    const before = firstOfChains(callbacks.before.plugins, callbacks.before.agent, base);
    result = before && (await before);
  } catch (thrown) {
    failed = true;
    error = failure(thrown);
  }

  if (result === undefined && !failed) {
    try {
      const raw = await run();
      // Parts beside the result (#30): taken off before the result becomes plain JSON.
      parts = partsBeside(tool.name, raw) ?? parts;
      result = resultAsJson(tool.name, raw);
    } catch (thrown) {
      if (thrown instanceof RunAbortedError) throw thrown;
      failed = true;
      error = failure(thrown);
    }
  }

  if (failed) {
    try {
      const recovering = firstOfChains(callbacks.onError.plugins, callbacks.onError.agent, () => ({ ...base, error }));
      const recovered = recovering && (await recovering);
      if (recovered !== undefined) {
        result = resultAsJson(tool.name, recovered);
        failed = false;
        error = undefined;
      }
    } catch (thrown) {
      error = failure(thrown);
    }
  }

  try {
    const after = firstOfChains(callbacks.after.plugins, callbacks.after.agent, () => ({ ...base, response: result, ...(failed ? { error } : {}) }));
    const replaced = after && (await after);
    if (replaced !== undefined) {
      parts = partsBeside(tool.name, replaced) ?? parts;
      result = resultAsJson(tool.name, replaced);
      failed = false;
      error = undefined;
    }
  } catch (thrown) {
    failed = true;
    error = failure(thrown);
    result = undefined;
  }

  if (failed) return { error };
  const outcome: ToolOutcome = parts && parts.length > 0 && result !== undefined ? { result, parts } : { result };
  if (result !== undefined && isModelOutputMapper(tool)) {
    // What the model is sent (redacted, summarised); a failure here is the call's error, so the
    // model never gets the unmapped result.
    try {
      const mapped: unknown = await tool.toModelOutput(result, context);
      const attached = responsePartsOf(mapped);
      const mappedParts = attached === undefined ? undefined : checkedResponseParts(tool.name, attached);
      if (mappedParts instanceof Error) throw mappedParts;
      const response = resultAsJson(tool.name, mapped) ?? {};
      outcome.modelView = mappedParts && mappedParts.length > 0 ? { response, parts: mappedParts } : { response };
    } catch (thrown) {
      if (thrown instanceof RunAbortedError) throw thrown;
      return { error: new Error(`Tool "${tool.name}": toModelOutput failed: ${errorMessage(thrown)}`, { cause: thrown }) };
    }
  }
  return outcome;
}

/**
 * The result as plain JSON data: a non-object is wrapped as `{result: value}` (FT-5), and
 * anything JSON cannot carry is refused with a message the tool's author can act on.
 */
export function resultAsJson(toolName: string, value: unknown): ToolResult | undefined {
  if (value === undefined || value === null) return undefined;
  const wrapped = typeof value === 'object' && !Array.isArray(value) ? value : { result: value };
  try {
    return toJsonValue(wrapped) as ToolResult;
  } catch (problem) {
    throw new TypeError(
      `Tool "${toolName}" returned a result that is not JSON-serializable: ${(problem as Error).message}. Return plain data (objects, arrays, strings, numbers, booleans, null).`,
    );
  }
}
