import { ConfigError, type Logger, type Plugin } from '@adkit/flow';
import { trace, type Tracer } from '@opentelemetry/api';
import { TRUNCATION_MARKER } from './boundedJson.js';
import { thrownMessage } from './spanAttributes.js';
import { SpanRecorder } from './spanRecorder.js';

/** Options of `otelPlugin`. */
export interface OtelPluginOptions {
  /**
   * The tracer the spans come from. Default: `trace.getTracer('@adkit/otel')` of the global
   * tracer provider — the OpenTelemetry API's no-op until an SDK registers one.
   */
  tracer?: Tracer;
  /**
   * Record prompts, model output, tool arguments and results as span attributes
   * (`gen_ai.input.messages`, `gen_ai.output.messages`, `gen_ai.system_instructions`,
   * `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`), each cut to `maxContentLength`.
   * Default `false`: they may hold personal data. The per-run context (`ctx.context`) is never
   * recorded either way.
   */
  captureContent?: boolean;
  /**
   * The longest text the plugin records, in characters: each content attribute, error message and
   * stack. Longer texts are cut and end with `…[truncated]`. Default 16384.
   */
  maxContentLength?: number;
}

/** The default of `OtelPluginOptions.maxContentLength`. */
export const DEFAULT_MAX_CONTENT_LENGTH = 16_384;

const MIN_CONTENT_LENGTH = 2 * TRUNCATION_MARKER.length;

/**
 * An adkit `Plugin` that traces runs with OpenTelemetry, following the GenAI semantic
 * conventions: a span per invocation (`invoke_agent <agent>`), per model call (`chat <model>`)
 * and per tool call (`execute_tool <tool>`), the last two children of the first — also when tools
 * run in parallel. A call paused for a confirmation or as a long-running call ends its span with
 * `adkit.outcome = "paused"`; the run that resumes it links to it.
 *
 * Register it first in `plugins`: plugins' callbacks stop at the first that returns a value, and
 * this one never does. It never throws into a run: a failure of the tracer is logged as a warning.
 *
 * @example
 * const runner = new InMemoryRunner({ agent, plugins: [otelPlugin({ captureContent: true })] });
 */
export function otelPlugin(options: OtelPluginOptions = {}): Plugin {
  const recorder = new SpanRecorder({
    tracer: checkTracer(options.tracer) ?? trace.getTracer('@adkit/otel'),
    captureContent: checkCaptureContent(options.captureContent),
    maxContentLength: checkMaxContentLength(options.maxContentLength),
  });
  return {
    name: 'otel',
    beforeRunCallback: ({ context }) => guard(context.logger, 'beforeRunCallback', () => recorder.startRun(context)),
    afterRunCallback: ({ context }) =>
      guard(context.logger, 'afterRunCallback', () => recorder.endRun(context.invocationId, 'completed')),
    onEventCallback: ({ context, event }) =>
      guard(context.logger, 'onEventCallback', () => recorder.observeEvent(context, event)),
    beforeModelCallback: ({ context, request }) =>
      guard(context.logger, 'beforeModelCallback', () => recorder.startModel(context, request)),
    afterModelCallback: ({ context, request, response }) =>
      guard(context.logger, 'afterModelCallback', () => recorder.endModel(context, request, response)),
    onModelErrorCallback: ({ context, request, error }) =>
      guard(context.logger, 'onModelErrorCallback', () => recorder.failModel(context, request, error)),
    beforeToolCallback: ({ tool, args, context }) =>
      guard(context.logger, 'beforeToolCallback', () => recorder.startTool(tool, args, context)),
    onToolErrorCallback: ({ tool, args, context, error }) =>
      guard(context.logger, 'onToolErrorCallback', () => recorder.toolError(tool, args, context, error)),
    afterToolCallback: (args) =>
      guard(args.context.logger, 'afterToolCallback', () =>
        recorder.endTool(args.tool, args.context, args.response, Object.hasOwn(args, 'error') ? { error: args.error } : undefined),
      ),
  };
}

/** Runs the work; tracing must never break a run, so a failure is only logged. Returns `undefined`. */
function guard(logger: Logger | undefined, callback: string, work: () => void): undefined {
  try {
    work();
  } catch (error) {
    try {
      logger?.warn(`@adkit/otel: ${callback} failed, the run goes on untraced there: ${thrownMessage(error)}`);
    } catch {
      // A logger that throws cannot be told either.
    }
  }
  return undefined;
}

function checkTracer(tracer: unknown): Tracer | undefined {
  if (tracer === undefined) return undefined;
  if (typeof (tracer as Partial<Tracer> | null)?.startSpan !== 'function')
    throw new ConfigError(
      'otelPlugin: tracer must be an OpenTelemetry Tracer (with startSpan); pass provider.getTracer("my-app"), or leave it out to use the global provider.',
    );
  return tracer as Tracer;
}

function checkCaptureContent(value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean')
    throw new ConfigError(`otelPlugin: captureContent must be true or false, got ${value === null ? 'null' : typeof value}.`);
  return value;
}

function checkMaxContentLength(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_CONTENT_LENGTH;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < MIN_CONTENT_LENGTH)
    throw new ConfigError(
      `otelPlugin: maxContentLength must be a whole number of characters, at least ${MIN_CONTENT_LENGTH}; got ${String(value)}. Leave it out for ${DEFAULT_MAX_CONTENT_LENGTH}.`,
    );
  return value;
}
