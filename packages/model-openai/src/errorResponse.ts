import { errorMessage, type LlmResponse } from '@adkit/flow';
import { UnsupportedRequestError } from './errors.js';

interface OpenAIErrorLike {
  name?: string;
  status?: unknown;
  error?: { message?: unknown; code?: unknown; type?: unknown; param?: unknown } | null;
  code?: unknown;
  type?: unknown;
  param?: unknown;
  cause?: unknown;
}

/**
 * Turns anything thrown while calling OpenAI into an error response (never a throw). HTTP errors get
 * the status as `errorCode` (`"400"`, `"401"`, `"429"`, `"500"`) and a message with the API's
 * type, param, code and text; connection failures get `CONNECTION_ERROR` or `TIMEOUT`; requests
 * the adapter refused before sending keep their own code (`UNSUPPORTED_TOOL`, …). Checks use fields
 * and class names, not `instanceof`, so errors from any copy of the openai SDK are recognised.
 */
export function errorResponse(error: unknown, model: string, baseURL: string): LlmResponse {
  if (error instanceof UnsupportedRequestError) return { errorCode: error.code, errorMessage: error.message };
  const e = (typeof error === 'object' && error !== null ? error : {}) as OpenAIErrorLike;
  const apiMessage = typeof e.error?.message === 'string' ? e.error.message : undefined;
  const details = [
    typeof e.type === 'string' ? e.type : undefined,
    typeof e.param === 'string' ? `param "${e.param}"` : undefined,
    typeof e.code === 'string' ? `code ${e.code}` : undefined,
  ].filter(Boolean);
  const detailText = details.length > 0 ? ` (${details.join(', ')})` : '';
  if (typeof e.status === 'number') {
    return {
      errorCode: String(e.status),
      errorMessage: `OpenAI API error ${e.status}${detailText} for model "${model}": ${apiMessage ?? errorMessage(error)}`,
    };
  }
  const kind = (error as { constructor?: { name?: string } } | null)?.constructor?.name ?? e.name;
  if (kind === 'APIConnectionTimeoutError') {
    return { errorCode: 'TIMEOUT', errorMessage: `The OpenAI API at ${baseURL} did not answer in time for model "${model}".` };
  }
  if (kind === 'APIConnectionError') {
    const cause = e.cause ? `: ${errorMessage(e.cause)}` : '';
    return {
      errorCode: 'CONNECTION_ERROR',
      errorMessage: `Could not reach the OpenAI API at ${baseURL} for model "${model}"${cause}`,
    };
  }
  if (apiMessage) {
    return {
      errorCode: typeof e.code === 'string' ? e.code : 'MODEL_ERROR',
      errorMessage: `OpenAI error${detailText} for model "${model}": ${apiMessage}`,
    };
  }
  return { errorCode: 'MODEL_ERROR', errorMessage: `OpenAI request for model "${model}" failed: ${errorMessage(error)}` };
}
