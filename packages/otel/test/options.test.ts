// Construction checks, the no-tracer case, and a tracer that fails. Bad input tried: options of the
// wrong type or size, no OpenTelemetry SDK at all, a sampler that drops every trace, and a tracer
// whose every call throws — tracing must never break or change a run.
import { InMemorySessionService, LlmAgent, Runner, createUserContent, isAdkitError, type Event, type Logger } from '@adkit/flow';
import { ScriptedModel, functionCallResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import type { Tracer } from '@opentelemetry/api';
import { AlwaysOffSampler, BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_CONTENT_LENGTH, PAUSED_SPANS_STATE_KEY, otelPlugin, type OtelPluginOptions } from '../src/index.js';

function thrown(options: unknown): unknown {
  try {
    otelPlugin(options as OtelPluginOptions);
  } catch (error) {
    return error;
  }
  return undefined;
}

/** A run with a paused confirmation and a normal tool call, logging to `warnings`. */
async function runWith(plugin: ReturnType<typeof otelPlugin>) {
  const warnings: string[] = [];
  const logger: Logger = { warn: (message) => void warnings.push(message), error: (message) => void warnings.push(message) };
  const sessions = new InMemorySessionService();
  const tools = [
    functionTool({ name: 'add', description: 'Adds.', parameters: Type.Object({ a: Type.Number() }), execute: ({ a }) => ({ sum: a + 1 }) }),
    functionTool({ name: 'delete_all', description: 'Deletes.', parameters: Type.Object({}), requireConfirmation: true, execute: () => ({ ok: true }) }),
  ];
  const model = new ScriptedModel([
    functionCallResponse([{ name: 'add', args: { a: 1 } }]),
    functionCallResponse([{ name: 'delete_all', id: 'd1' }]),
  ]);
  const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools }), sessionService: sessions, plugins: [plugin], logger, autoCreateSession: true });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go') })) events.push(event);
  const session = await sessions.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  return { events, warnings, state: session!.state };
}

describe('otelPlugin options', () => {
  it('refuses options of the wrong kind at construction, naming the fix', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ tracer: {} }, /^otelPlugin: tracer must be an OpenTelemetry Tracer \(with startSpan\)/],
      [{ tracer: null }, /^otelPlugin: tracer must be/],
      [{ captureContent: 'yes' }, /^otelPlugin: captureContent must be true or false, got string\.$/],
      [{ maxContentLength: 10 }, /^otelPlugin: maxContentLength must be a whole number of characters, at least 24; got 10\. Leave it out for 16384\.$/],
      [{ maxContentLength: 1.5 }, /at least 24; got 1\.5\./],
      [{ maxContentLength: Number.POSITIVE_INFINITY }, /got Infinity\./],
    ];
    for (const [options, message] of cases) {
      const error = thrown(options);
      expect(isAdkitError(error) && error.code, JSON.stringify(options)).toBe('INVALID_CONFIG');
      expect((error as Error).message).toMatch(message);
    }
    expect(DEFAULT_MAX_CONTENT_LENGTH).toBe(16_384);
    expect(otelPlugin().name).toBe('otel');
  });

  it('with no OpenTelemetry SDK installed, a run is unchanged and nothing is saved for links', async () => {
    const traced = await runWith(otelPlugin({ captureContent: true }));
    expect(traced.warnings).toEqual([]);
    expect(traced.state).not.toHaveProperty(PAUSED_SPANS_STATE_KEY);
    const plain = await runWith({ name: 'nothing' });
    const shape = (events: Event[]) => events.map((event) => [event.author, event.content?.parts?.map((part) => Object.keys(part)), event.errorCode]);
    expect(shape(traced.events)).toEqual(shape(plain.events));
  });

  it('a run that the sampler drops records nothing and saves nothing', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ sampler: new AlwaysOffSampler(), spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const { state, warnings } = await runWith(otelPlugin({ tracer: provider.getTracer('t'), captureContent: true }));
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(state).not.toHaveProperty(PAUSED_SPANS_STATE_KEY);
    expect(warnings).toEqual([]);
  });

  it('a tracer that throws never breaks a run: the run is the same, the failures are warnings', async () => {
    const broken = {
      startSpan: () => {
        throw new Error('exporter exploded');
      },
      startActiveSpan: () => {
        throw new Error('exporter exploded');
      },
    } as unknown as Tracer;
    const { events, warnings } = await runWith(otelPlugin({ tracer: broken }));
    expect(events.map((event) => event.errorCode).filter(Boolean)).toEqual([]);
    expect(events.at(-1)?.content?.parts?.[0]?.functionCall?.name).toBe('adk_request_confirmation');
    expect(warnings).toContain('@adkit/otel: beforeRunCallback failed, the run goes on untraced there: exporter exploded');
    expect(warnings.every((warning) => warning.startsWith('@adkit/otel: '))).toBe(true);
  });
});
