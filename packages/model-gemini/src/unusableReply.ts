import type { LlmResponse } from '@adkit/flow';

/**
 * The error response for a stream that ended before the answer was complete (`INCOMPLETE_STREAM`):
 * whatever arrived is dropped, so that a half-received answer never looks complete and no call is
 * made from partial arguments.
 */
export function incompleteStream(model: string, how: string): LlmResponse {
  return {
    errorCode: 'INCOMPLETE_STREAM',
    errorMessage: `The Gemini stream for model "${model}" ${how}; the answer is incomplete, so it was dropped.`,
  };
}

/** The error response for a 2xx reply that carries no answer (`EMPTY_RESPONSE`), saying what came. */
export function emptyReply(model: string, what: string): LlmResponse {
  return { errorCode: 'EMPTY_RESPONSE', errorMessage: `Gemini returned no answer for model "${model}": ${what}.` };
}

/** A reply body for a message: its first 200 characters as JSON, the SDK's own fields left out. */
export function describeReply(reply: object): string {
  const { sdkHttpResponse: _http, ...body } = reply as Record<string, unknown>;
  const text = JSON.stringify(body);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** `1 event`, `3 events`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
