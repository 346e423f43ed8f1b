import type { LlmResponse } from '@adkit/flow';

/**
 * The error response for a stream that ended before the answer was complete (`INCOMPLETE_STREAM`):
 * whatever arrived is dropped, so that a half-received answer never looks complete and no call is
 * made from partial arguments.
 */
export function incompleteStream(model: string, how: string): LlmResponse {
  return {
    errorCode: 'INCOMPLETE_STREAM',
    errorMessage: `The OpenAI stream for model "${model}" ${how}; the answer is incomplete, so it was dropped.`,
  };
}

/** The error response for a 2xx reply that carries no answer (`EMPTY_RESPONSE`), saying what came. */
export function emptyReply(model: string, what: string): LlmResponse {
  return { errorCode: 'EMPTY_RESPONSE', errorMessage: `OpenAI returned no answer for model "${model}": ${what}.` };
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

/** `1 event`, `3 events`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
