import type { SpanContext } from '@opentelemetry/api';
import { traceparent } from './pausedSpans.js';

/**
 * Where tools find the W3C trace context of their call's `execute_tool` span, keyed by the call's
 * `ToolContext`: a `WeakMap` at `globalThis[Symbol.for('adkit.toolTraceContext')]`, shared by
 * every copy of every package (like the error marker). `@adkit/mcp-toolset` reads it to send
 * `traceparent` in each `tools/call`'s `_meta`, without depending on OpenTelemetry.
 */
const REGISTRY = Symbol.for('adkit.toolTraceContext');

type Registry = WeakMap<object, { traceparent: string; tracestate?: string }>;

function registry(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  return (holder[REGISTRY] ??= new WeakMap());
}

/** Publishes a tool call's span while it runs. */
export function publishToolTraceContext(context: object, span: SpanContext): void {
  const state = span.traceState?.serialize();
  registry().set(context, { traceparent: traceparent(span), ...(state ? { tracestate: state } : {}) });
}

/** Withdraws it when the span ends. */
export function withdrawToolTraceContext(context: object): void {
  registry().delete(context);
}
