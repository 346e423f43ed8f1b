import type { LlmResponse } from '@adkit/flow';
import {
  brokenStreamResponse,
  emptyReplyResponse,
  incompleteStreamResponse,
  type BrokenStreamError,
} from '@adkit/flow/model-kit';

export { count } from '@adkit/flow/model-kit';

/** `INCOMPLETE_STREAM` for this provider (see `incompleteStreamResponse` in `@adkit/flow/model-kit`). */
export function incompleteStream(model: string, how: string): LlmResponse {
  return incompleteStreamResponse('OpenAI', model, how);
}

/** `EMPTY_RESPONSE` for this provider (see `emptyReplyResponse` in `@adkit/flow/model-kit`). */
export function emptyReply(model: string, what: string): LlmResponse {
  return emptyReplyResponse('OpenAI', model, what);
}

/** The error response for a broken stream of this provider. */
export function brokenStream(model: string, error: BrokenStreamError): LlmResponse {
  return brokenStreamResponse('OpenAI', model, error, 'event');
}

/** A reply body for a message: its content type and its first 200 characters, whitespace folded. */
export function describeBody(data: unknown, contentType: string): string {
  let text: string;
  try {
    text = typeof data === 'string' ? data : (JSON.stringify(data) ?? String(data));
  } catch {
    text = String(data);
  }
  const folded = text.replace(/\s+/g, ' ').trim();
  return `${contentType}: ${folded.length > 200 ? `${folded.slice(0, 200)}…` : folded || '(empty)'}`;
}

/** True for errors the API sent (an HTTP status, or an error object in the stream), not connection failures. */
export function isApiError(error: unknown): boolean {
  const e = error as { status?: unknown; error?: unknown } | null;
  return typeof e?.status === 'number' || (typeof e?.error === 'object' && e.error !== null);
}

