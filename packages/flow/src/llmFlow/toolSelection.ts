import type { Awaitable } from '../runner/callbacks.js';
import { FlowContext } from '../context/flowContext.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import type { Plugin } from '../runner/plugin.js';
import type { ReadonlyContext } from '../context/readonlyContext.js';
import type { ResolvedTools } from './resolveTools.js';
import { isRequestProcessor, isResumableTool, isRunnableTool, isStreamingTool, type Tool, type Toolset } from '../tools/tool.js';
import { quoted } from './quoted.js';

/** What a tool selector gets each model step. */
export interface ToolSelectionArgs {
  /** The invocation, read-only: state (where a selector keeps what it chose), ids, the per-run context. */
  readonly context: ReadonlyContext;
  /** The tools this step would declare: the run's tools, as the selectors before this one left them. */
  readonly tools: readonly Tool[];
}

/**
 * Chooses the tools one model step declares (adk-js `beforeToolSelection`): return the list to
 * declare (a subset, a reordering, or with tools added), or `undefined` to keep the list as it is.
 * A call to a tool that this step did not declare gets the unknown-tool error. Paused calls
 * (confirmations, long-running answers, consents) still resume through every tool of the run.
 */
export type BeforeToolSelectionCallback = (args: ToolSelectionArgs) => Awaitable<readonly Tool[] | undefined | void>;

/**
 * A toolset that chooses, per step, which of the run's tools are declared: `toolSearch` hides its
 * catalog this way until the model finds a tool. It runs before the plugins' and the agent's
 * `beforeToolSelectionCallback`.
 */
export interface ToolSelector {
  selectTools(args: ToolSelectionArgs): Awaitable<readonly Tool[] | undefined | void>;
}

/** Whether the toolset chooses the tools each step declares. */
export function isToolSelector<T extends object>(value: T): value is T & ToolSelector {
  return typeof (value as Partial<ToolSelector>).selectTools === 'function';
}

type Selector = { label: string; select: BeforeToolSelectionCallback };

/**
 * The plugins' and the agent's selection callbacks, once per run (plugins first, FL-13 order);
 * `undefined` when there are none, so that a step without them does no selection work.
 */
export function runToolSelectors(agent: LlmAgent, plugins: readonly Plugin[]): readonly Selector[] | undefined {
  const selectors: Selector[] = [];
  for (const plugin of plugins) {
    const callback = plugin.beforeToolSelectionCallback;
    if (callback) selectors.push({ label: `plugin "${quoted(plugin.name)}"`, select: (args) => callback.call(plugin, args) });
  }
  for (const callback of agent.beforeToolSelectionCallbacks) selectors.push({ label: `agent "${agent.name}"`, select: callback });
  return selectors.length > 0 ? selectors : undefined;
}

// The toolset selectors of a run's resolved tools, found once per run (the resolution is cached).
const toolsetSelectors = new WeakMap<ResolvedTools, readonly Selector[]>();

const NO_SELECTORS: readonly Selector[] = Object.freeze([]);

function selectorsOf(resolved: ResolvedTools): readonly Selector[] {
  // Without toolsets there is nothing to find, nor to remember per run (a WeakMap entry per run costs the GC).
  if (resolved.toolsets.length === 0) return NO_SELECTORS;
  let found = toolsetSelectors.get(resolved);
  if (!found) {
    found = resolved.toolsets.filter(isToolSelector).map((toolset: Toolset & ToolSelector) => ({
      label: `toolset "${quoted(toolset.name)}"`,
      select: (args: ToolSelectionArgs) => toolset.selectTools(args),
    }));
    toolsetSelectors.set(resolved, found);
  }
  return found;
}

/**
 * The tools this step declares: the run's tools passed through the toolsets' `selectTools`, then
 * the plugins' and the agent's callbacks, each getting what the one before left. Without any
 * selector the resolution is returned as it is. A selector that returns something other than a
 * list of tools throws here, which ends the step with a REQUEST_ERROR naming it.
 */
export function selectStepTools(
  resolved: ResolvedTools,
  runSelectors: readonly Selector[] | undefined,
  invocation: InvocationContext,
): ResolvedTools | Promise<ResolvedTools> {
  const own = selectorsOf(resolved);
  // Without any selector, no promise: the step goes on at once (#24).
  if (own.length === 0 && !runSelectors) return resolved;
  return runSelectorsOn(resolved, runSelectors ? [...own, ...runSelectors] : own, invocation);
}

async function runSelectorsOn(resolved: ResolvedTools, selectors: readonly Selector[], invocation: InvocationContext): Promise<ResolvedTools> {
  const context = new FlowContext(invocation);
  let tools: readonly Tool[] = resolved.tools;
  for (const selector of selectors) {
    const chosen: unknown = await selector.select({ context, tools });
    if (chosen === undefined || chosen === null) continue;
    tools = checkedSelection(chosen, selector.label);
  }
  return tools === resolved.tools ? resolved : { ...resolved, tools };
}

function checkedSelection(chosen: unknown, label: string): readonly Tool[] {
  if (!Array.isArray(chosen))
    throw new Error(`Tool selection by ${label} returned ${typeof chosen}, not a list of tools; return the tools to declare, or undefined to keep them.`);
  for (const [i, tool] of chosen.entries()) {
    const usable =
      typeof tool === 'object' &&
      tool !== null &&
      typeof (tool as Tool).name === 'string' &&
      (isRunnableTool(tool as Tool) || isStreamingTool(tool as Tool) || isResumableTool(tool as Tool) || isRequestProcessor(tool as Tool));
    if (!usable) throw new Error(`Tool selection by ${label} returned a list whose entry ${i} is not a tool the flow can use.`);
  }
  return chosen as readonly Tool[];
}
