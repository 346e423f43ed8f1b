import { InMemoryRunner, createUserContent, type BaseAgent, type Content, type Event, type RunAsyncRequest } from '@adkit/flow';
import type { Span } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { otelPlugin, type OtelPluginOptions } from '../../src/index.js';

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

/**
 * An InMemoryRunner for the agent, with otelPlugin writing to an in-memory tracer, and `run`,
 * which sends a message (user "u1", session "s1" unless given) and collects the events.
 */
export function tracedRunner(agent: BaseAgent, options: Omit<OtelPluginOptions, 'tracer'> = {}) {
  const tracing = inMemoryTracing();
  const runner = new InMemoryRunner({ agent, plugins: [otelPlugin({ tracer: tracing.tracer, ...options })], autoCreateSession: true });
  const run = async (message: string | Content = 'go', request: Partial<RunAsyncRequest> = {}): Promise<Event[]> => {
    const newMessage = typeof message === 'string' ? createUserContent(message) : message;
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage, ...request })) events.push(event);
    return events;
  };
  return { tracing, runner, run };
}
