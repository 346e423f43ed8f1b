// The public API of @adkit/otel. Every line here is an API decision.
export type { OtelPluginOptions } from './otelPlugin.js';
export { otelPlugin, DEFAULT_MAX_CONTENT_LENGTH } from './otelPlugin.js';
export { PAUSED_SPANS_STATE_KEY } from './pausedSpans.js';
export type { SpanOutcome, PauseReason } from './spanAttributes.js';
