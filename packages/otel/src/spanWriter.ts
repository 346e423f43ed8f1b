import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { boundedJson, truncateText } from './boundedJson.js';
import { ATTR, errorType, thrownMessage, type SpanOutcome } from './spanAttributes.js';

/** Names (of tools, models, agents, call ids) longer than this are cut. */
const MAX_NAME_LENGTH = 256;

/**
 * Writes to spans within the plugin's limits: content only when capturing and the span records,
 * every text cut to `maxContentLength`, every name to 256 characters, errors in one shape.
 */
export class SpanWriter {
  constructor(
    private readonly captureContent: boolean,
    private readonly maxContentLength: number,
  ) {}

  /** Whether content attributes go on this span (asked for, and the span is recorded). */
  capturing(span: Span): boolean {
    return this.captureContent && span.isRecording();
  }

  /** Sets a content attribute: the value as bounded JSON. */
  content(span: Span, attribute: string, value: unknown): void {
    let text: string;
    try {
      text = boundedJson(value, this.maxContentLength);
    } catch {
      text = '"[unserializable]"';
    }
    span.setAttribute(attribute, text);
  }

  /** Sets `adkit.outcome` and ends the span. */
  end(span: Span, outcome: SpanOutcome): void {
    span.setAttribute(ATTR.outcome, outcome);
    span.end();
  }

  /** An error status with `error.type`, and the thrown value as an `exception` event. */
  thrown(span: Span, error: unknown): void {
    this.error(span, errorType(error), thrownMessage(error));
    this.exception(span, error);
  }

  /** An error status with `error.type` and the message (cut). */
  error(span: Span, type: string, message: string | undefined): void {
    span.setAttribute(ATTR.errorType, this.name(type));
    span.setStatus({ code: SpanStatusCode.ERROR, ...(message ? { message: this.text(message) } : {}) });
  }

  /** The thrown value as an `exception` event, its message and stack cut. */
  exception(span: Span, error: unknown): void {
    const exception: { name: string; message: string; stack?: string } = { name: errorType(error), message: this.text(thrownMessage(error)) };
    const stack = stackOf(error);
    if (stack !== undefined) exception.stack = this.text(stack);
    span.recordException(exception);
  }

  /** A free text (a description, a message), cut to `maxContentLength`. */
  text(value: string): string {
    return truncateText(value, this.maxContentLength);
  }

  /** A name, cut to 256 characters. */
  name(value: unknown): string {
    return truncateText(String(value), MAX_NAME_LENGTH);
  }
}

/** An error's stack, if it has one that can be read. */
function stackOf(error: unknown): string | undefined {
  try {
    return error instanceof Error && typeof error.stack === 'string' ? error.stack : undefined;
  } catch {
    return undefined;
  }
}
