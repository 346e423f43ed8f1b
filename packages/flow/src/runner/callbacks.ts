import type { CallbackContext } from '../context/callbackContext.js';
import type { LlmRequest } from '../model/llmRequest.js';
import type { LlmResponse } from '../model/llmResponse.js';
import type { Tool } from '../tools/tool.js';
import type { ToolContext } from '../context/toolContext.js';

/** A value, or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/** A tool's result as the model sees it. */
export type ToolResult = Record<string, unknown>;

/** What every tool callback gets. */
export interface ToolCallbackArgs {
  tool: Tool;
  args: Record<string, unknown>;
  context: ToolContext;
}

/** Runs before a tool; a result skips the tool and answers the call. Throwing counts as the tool's error. */
export type BeforeToolCallback = (args: ToolCallbackArgs) => Awaitable<ToolResult | undefined | void>;
/** Runs after a tool (or its error); a result replaces the response. */
export type AfterToolCallback = (
  args: ToolCallbackArgs & { response: ToolResult | undefined; error?: unknown },
) => Awaitable<ToolResult | undefined | void>;
/** Runs when a tool failed; a result recovers, a throw replaces the error. */
export type OnToolErrorCallback = (args: ToolCallbackArgs & { error: unknown }) => Awaitable<ToolResult | undefined | void>;

/** What every model callback gets. */
export interface ModelCallbackArgs {
  context: CallbackContext;
  request: LlmRequest;
}

/** Runs before the model; a response skips the model call. */
export type BeforeModelCallback = (args: ModelCallbackArgs) => Awaitable<LlmResponse | undefined | void>;
/** Runs after each model response; a response replaces it. */
export type AfterModelCallback = (
  args: ModelCallbackArgs & { response: LlmResponse },
) => Awaitable<LlmResponse | undefined | void>;
/** Runs when the model call threw; a response recovers. */
export type OnModelErrorCallback = (
  args: ModelCallbackArgs & { error: unknown },
) => Awaitable<LlmResponse | undefined | void>;

/** One callback or a list of them; in a list the first that returns a value wins. */
export type OneOrMany<T> = T | readonly T[];

/** The callback as a list. */
export function callbackList<T>(value: OneOrMany<T> | undefined): readonly T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? (value as readonly T[]) : [value as T];
}

/**
 * `firstResult` over two chains in turn (FL-13: the plugins', then the agent's), or `undefined`
 * at once when both are empty: a run without callbacks pays no promise and no microtask for them
 * (#24). `args` may be a function that builds them, called only when there is a callback.
 */
export function firstOfChains<A, R>(
  first: readonly ((args: A) => Awaitable<R | undefined | void>)[],
  second: readonly ((args: A) => Awaitable<R | undefined | void>)[],
  args: A | (() => A),
): Promise<R | undefined> | undefined {
  if (first.length === 0 && second.length === 0) return undefined;
  const built = typeof args === 'function' ? (args as () => A)() : args;
  return firstResult(first, built).then((result) => result ?? firstResult(second, built));
}

/** Calls each callback in order until one returns something other than `undefined`. */
export async function firstResult<A, R>(
  callbacks: readonly ((args: A) => Awaitable<R | undefined | void>)[],
  args: A,
): Promise<R | undefined> {
  for (const callback of callbacks) {
    const result = await callback(args);
    if (result !== undefined && result !== null) return result as R;
  }
  return undefined;
}
