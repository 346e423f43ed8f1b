import type { Plugin } from '@adkit/flow';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * `--trace`: the `@adkit/otel` plugin on an OpenTelemetry SDK tracer that prints each span as it
 * ends (`⌁ execute_tool get_weather 151 ms completed`). Point a real exporter (OTLP, say) at the
 * same plugin to see the runs in your tracing stack. The SDK is loaded only with `--trace`.
 */
export async function tracePlugin(write: (line: string) => void): Promise<Plugin> {
  const [{ otelPlugin }, { BasicTracerProvider }] = await Promise.all([import('@adkit/otel'), import('@opentelemetry/sdk-trace-base')]);
  const printer: SpanProcessor = {
    onStart: () => {},
    onEnd: (span: ReadableSpan) => {
      const [seconds, nanos] = span.duration;
      const ms = Math.round(seconds * 1000 + nanos / 1e6);
      write(`  ⌁ ${span.name} ${ms} ms ${String(span.attributes['adkit.outcome'] ?? '')}`.trimEnd());
    },
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const provider = new BasicTracerProvider({ spanProcessors: [printer] });
  return otelPlugin({ tracer: provider.getTracer('adkit-demo') });
}
