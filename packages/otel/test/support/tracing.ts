import type { Span } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** A real SDK tracer whose ended spans land in memory, and which also remembers every span started. */
export function inMemoryTracing() {
  const exporter = new InMemorySpanExporter();
  const started: ReadableSpan[] = [];
  const recordStarts: SpanProcessor = {
    onStart: (span) => void started.push(span as unknown as ReadableSpan),
    onEnd: () => {},
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const provider = new BasicTracerProvider({ spanProcessors: [recordStarts, new SimpleSpanProcessor(exporter)] });
  return {
    tracer: provider.getTracer('adkit-otel-test'),
    /** Ended spans, in the order they ended. */
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    /** Every span started, ended or not. */
    started,
    /** The one ended span with this name (fails when there are none or several). */
    span(name: string): ReadableSpan {
      const found = exporter.getFinishedSpans().filter((span) => span.name === name);
      if (found.length !== 1) throw new Error(`expected one span "${name}", found ${found.length}: ${exporter.getFinishedSpans().map((s) => s.name).join(', ')}`);
      return found[0]!;
    },
  };
}

/** The span's id, and its parent's. */
export const idOf = (span: ReadableSpan | Span): string => span.spanContext().spanId;
export const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

/** Every string in the span's attributes, status and events, for "this text never appears" checks. */
export function recordedText(span: ReadableSpan): string {
  return JSON.stringify([span.name, span.attributes, span.status, span.events.map((event) => [event.name, event.attributes])]);
}
