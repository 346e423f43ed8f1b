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
  return incompleteStreamResponse('Gemini', model, how);
}

/** `EMPTY_RESPONSE` for this provider (see `emptyReplyResponse` in `@adkit/flow/model-kit`). */
export function emptyReply(model: string, what: string): LlmResponse {
  return emptyReplyResponse('Gemini', model, what);
}

/** The error response for a broken stream of this provider. */
export function brokenStream(model: string, error: BrokenStreamError): LlmResponse {
  return brokenStreamResponse('Gemini', model, error, 'chunk');
}

/** A reply body for a message: its first 200 characters as JSON, the SDK's own fields left out. */
export function describeReply(reply: object): string {
  const { sdkHttpResponse: _http, ...body } = reply as Record<string, unknown>;
  const text = JSON.stringify(body);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

