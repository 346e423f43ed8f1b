import { createLlmRequest, registerTool } from '@adkit/flow';
import type { GenaiTool, LlmRequest, RequestProcessor, Tool } from '@adkit/flow';

/** What a request processor's context is (the flow's `RequestContext`). */
export type ProcessRequestContext = Parameters<RequestProcessor['processRequest']>[0];

/**
 * An object that answers for `target`: every method of it (own or inherited, string or symbol
 * keyed, the capabilities the flow knows today and any it learns later) calls the target's, and
 * every other property reads the target's current value. Wrappers start from this and replace
 * what they change, so they never drop a capability by forgetting it.
 */
export function delegateMembers(target: object): Record<PropertyKey, unknown> {
  const wrapper: Record<PropertyKey, unknown> = {};
  const source = target as Record<PropertyKey, unknown>;
  for (let layer: object | null = target; layer && layer !== Object.prototype; layer = Object.getPrototypeOf(layer)) {
    for (const key of Reflect.ownKeys(layer)) {
      if (key === 'constructor' || Object.hasOwn(wrapper, key)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(layer, key)!;
      if (typeof descriptor.value === 'function')
        defineMember(wrapper, key, (...args: unknown[]) => (source[key] as (...a: unknown[]) => unknown).apply(target, args), descriptor.enumerable);
      else
        Object.defineProperty(wrapper, key, { get: () => source[key], enumerable: descriptor.enumerable ?? true, configurable: true });
    }
  }
  return wrapper;
}

/** Sets a member of a wrapper (replacing a delegated one); `__proto__` stays an own property. */
export function defineMember(wrapper: object, key: PropertyKey, value: unknown, enumerable = true): void {
  Object.defineProperty(wrapper, key, { value, writable: true, enumerable: enumerable ?? true, configurable: true });
}

/** How the tools a wrapped request processor registers come out. */
export interface RegistrationMapping {
  /** The registered (and declared) name for a name the processor used. */
  rename?: (name: string) => string;
  /** What to register for another tool the processor registers. */
  wrapRegistered?: (tool: Tool) => Tool;
  /** The wrapped tool itself: registered as `wrapper` when it registers itself. */
  self?: { tool: Tool; wrapper: Tool };
}

/**
 * Runs a wrapped request processor so that what it registers comes out wrapped: it works on a
 * view of the request with an empty dispatch table (so nothing it registers can collide with the
 * real one), sharing the contents and config; then each tool it registered is registered with
 * `registerTool` as `rename(key)` — the wrapped tool itself as the wrapper, any other one through
 * `wrapRegistered` — and each declaration it added is renamed. A taken name is a `DUPLICATE_TOOL`
 * error: the wrapper's own name before the processor runs, the others before any is registered.
 */
export async function processWrapped(
  processor: RequestProcessor,
  ctx: ProcessRequestContext,
  request: LlmRequest,
  mapping: RegistrationMapping,
): Promise<void> {
  const { rename, wrapRegistered, self } = mapping;
  // The usual case (the tool registers itself) fails before anything changes, like packTool.
  if (self && Object.hasOwn(request.tools, self.wrapper.name)) registerTool(request, self.wrapper);
  const view = createLlmRequest({ model: request.model, contents: request.contents, config: request.config });
  const seen = declarationCounts(request.config.tools);
  await processor.processRequest(ctx, view);

  const registrations = Object.entries(view.tools).map(([key, registered]) => ({
    name: rename ? rename(key) : key,
    tool: self && registered === self.tool ? self.wrapper : wrapRegistered ? wrapRegistered(registered) : registered,
  }));
  for (const { name, tool } of registrations) if (Object.hasOwn(request.tools, name)) registerTool(request, tool, name);
  request.contents = view.contents;
  request.config = view.config;
  if (view.model !== undefined) request.model = view.model;
  if (rename)
    for (const entry of request.config.tools ?? []) {
      const declarations = entry.functionDeclarations;
      if (!declarations) continue;
      for (let i = seen.get(entry) ?? 0; i < declarations.length; i++)
        declarations[i] = { ...declarations[i]!, name: rename(declarations[i]!.name) };
    }
  for (const { name, tool } of registrations) registerTool(request, tool, name);
}

function declarationCounts(entries: readonly GenaiTool[] | undefined): Map<GenaiTool, number> {
  const counts = new Map<GenaiTool, number>();
  for (const entry of entries ?? []) counts.set(entry, entry.functionDeclarations?.length ?? 0);
  return counts;
}
