import { errorMessage, type ToolContext } from '@adkit/flow';
import { ToolError } from '@adkit/tool';

/**
 * Adds entries to the `_meta` of one `tools/call` (a tenant id, a request id for the server's
 * logs): called before each call with the tool's name, the model's arguments and the call's
 * context. Entries it returns win over the trace context; `progressToken` stays the client's.
 */
export type McpCallMeta = (
  toolName: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>;

/**
 * Where a tracing plugin publishes the W3C trace context of each tool call's span, keyed by the
 * call's `ToolContext`: a `WeakMap` at `globalThis[Symbol.for('adkit.toolTraceContext')]`.
 * `@adkit/otel` fills it while an `execute_tool` span is open; any tool may read it. A registry
 * keyed by a well-known symbol (like the error marker) lets this package propagate traces
 * without depending on OpenTelemetry or on `@adkit/otel`.
 */
export const TOOL_TRACE_CONTEXT = Symbol.for('adkit.toolTraceContext');

/** A span's W3C trace context, as HTTP carries it. */
export interface ToolTraceContext {
  readonly traceparent: string;
  readonly tracestate?: string;
}

const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The trace context published for this call, if a tracing plugin is active and well-formed. */
export function toolTraceContext(ctx: object): ToolTraceContext | undefined {
  const registry = (globalThis as { [TOOL_TRACE_CONTEXT]?: unknown })[TOOL_TRACE_CONTEXT];
  if (!(registry instanceof WeakMap)) return undefined;
  const found: unknown = registry.get(ctx);
  const traceparent = (found as { traceparent?: unknown } | undefined)?.traceparent;
  if (typeof traceparent !== 'string' || !TRACEPARENT.test(traceparent)) return undefined;
  const tracestate = (found as { tracestate?: unknown }).tracestate;
  return typeof tracestate === 'string' && tracestate.length > 0 && tracestate.length <= 512 ? { traceparent, tracestate } : { traceparent };
}

/**
 * The `_meta` of one call: the W3C trace context of its span (`traceparent`, `tracestate`), so a
 * traced server joins the trace, then the app's entries. `undefined` when there is nothing to add.
 * Without a hook it answers at once, not as a promise: a call then waits no microtask turn for
 * its `_meta` (#24). With one it is a promise (the hook may be async), rejected as
 * `MCP_META_FAILED` when the hook fails; it never throws.
 */
export function callMeta(
  hook: McpCallMeta | undefined,
  toolName: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined> {
  if (hook) return hookedMeta(hook, toolName, args, ctx);
  const trace = toolTraceContext(ctx);
  return trace ? { ...trace } : undefined;
}

/** `callMeta` with the app's hook: the trace context, then the hook's entries. */
async function hookedMeta(
  hook: McpCallMeta,
  toolName: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<Record<string, unknown> | undefined> {
  const trace = toolTraceContext(ctx);
  let added: Record<string, unknown> | undefined;
  try {
    added = await hook(toolName, args, ctx);
  } catch (error) {
    throw new ToolError(`The app's meta hook failed for tool "${toolName}": ${errorMessage(error)}`, { code: 'MCP_META_FAILED', toolName, cause: error });
  }
  if (added !== undefined && (typeof added !== 'object' || added === null || Array.isArray(added)))
    throw new ToolError(`The app's meta hook for tool "${toolName}" must return an object of _meta entries or undefined.`, {
      code: 'MCP_META_FAILED',
      toolName,
    });
  if (!trace && !added) return undefined;
  const meta: Record<string, unknown> = trace ? { ...trace } : {};
  if (added) for (const key of Object.keys(added)) if (key !== 'progressToken') Object.defineProperty(meta, key, { value: added[key], enumerable: true, writable: true, configurable: true });
  return meta;
}
