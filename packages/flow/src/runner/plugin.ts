import type {
  AfterModelCallback,
  AfterToolCallback,
  Awaitable,
  BeforeModelCallback,
  BeforeToolCallback,
  OnModelErrorCallback,
  OnToolErrorCallback,
} from './callbacks.js';
import type { Content } from '../content/content.js';
import type { Event } from '../content/event.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { BeforeToolSelectionCallback } from '../llmFlow/toolSelection.js';

/**
 * A plugin: callbacks that apply to every agent of a runner. Plugins run before the agents'
 * own callbacks, in registration order; the first that returns a value wins (FL-13).
 */
export interface Plugin {
  readonly name: string;
  /** Before the invocation; returned content ends it at once as the answer. */
  beforeRunCallback?(args: { context: InvocationContext }): Awaitable<Content | undefined | void>;
  /** After the invocation finished (not after an abort). */
  afterRunCallback?(args: { context: InvocationContext }): Awaitable<void>;
  /** For each event before it is saved and yielded; a returned event replaces it. */
  onEventCallback?(args: { context: InvocationContext; event: Event }): Awaitable<Event | undefined | void>;
  beforeModelCallback?: BeforeModelCallback;
  afterModelCallback?: AfterModelCallback;
  onModelErrorCallback?: OnModelErrorCallback;
  beforeToolCallback?: BeforeToolCallback;
  afterToolCallback?: AfterToolCallback;
  onToolErrorCallback?: OnToolErrorCallback;
  /** Chooses the tools each model step declares, after the toolsets' selectors and before the agent's. */
  beforeToolSelectionCallback?: BeforeToolSelectionCallback;
}

type PluginCallbackKey =
  | 'beforeModelCallback'
  | 'afterModelCallback'
  | 'onModelErrorCallback'
  | 'beforeToolCallback'
  | 'afterToolCallback'
  | 'onToolErrorCallback';

/** The plugins' callbacks of one kind, in registration order, each bound to its plugin. */
export function pluginCallbacks<K extends PluginCallbackKey>(
  plugins: readonly Plugin[],
  key: K,
): readonly NonNullable<Plugin[K]>[] {
  if (plugins.length === 0) return NO_CALLBACKS;
  const callbacks: NonNullable<Plugin[K]>[] = [];
  for (const plugin of plugins) {
    const callback = plugin[key] as ((this: Plugin, args: unknown) => unknown) | undefined;
    if (callback) callbacks.push(((args: unknown) => callback.call(plugin, args)) as NonNullable<Plugin[K]>);
  }
  return callbacks;
}

const NO_CALLBACKS: readonly never[] = Object.freeze([]);
