import { errorMessage, type LlmResponse } from '@adkit/flow';
import { emptyReply } from './unusableReply.js';

interface GoogleErrorBody {
  error?: { code?: number; message?: string; status?: string };
}

function parseErrorBody(text: string): GoogleErrorBody['error'] | undefined {
  try {
    const parsed = JSON.parse(text) as GoogleErrorBody;
    return typeof parsed === 'object' && parsed !== null && parsed.error ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The API's own message and status from a genai `ApiError` message, which holds the JSON error
 * body, sometimes twice wrapped (a streaming request's error arrives as a JSON string inside
 * `error.message`).
 */
function describeApiError(message: string): { message: string; status?: string } {
  let body = parseErrorBody(message);
  let status = body?.status;
  for (let depth = 0; body?.message && depth < 3; depth++) {
    const inner = parseErrorBody(body.message);
    if (!inner) break;
    body = inner;
    status = inner.status ?? status;
  }
  return { message: body?.message ?? message, ...(status ? { status } : {}) };
}

/** True for errors the API sent (an HTTP status, also for an error inside a stream), not connection failures. */
export function isApiError(error: unknown): boolean {
  return typeof (error as { status?: unknown } | null)?.status === 'number';
}

/**
 * Turns anything the genai SDK threw into an error response (never a throw): HTTP errors get the
 * status as `errorCode` (`"400"`, `"404"`, `"429"`) and a message with the API's status and text;
 * network failures get `CONNECTION_ERROR`; a 2xx body that is not JSON (a proxy's HTML page) gets
 * `EMPTY_RESPONSE`.
 */
export function errorResponse(error: unknown, model: string): LlmResponse {
  const status = (error as { status?: unknown } | null)?.status;
  if (error instanceof SyntaxError) {
    // Only a 2xx body is parsed as JSON by the SDK (error bodies are read leniently).
    return emptyReply(model, `the reply is not JSON (${error.message})`);
  }
  if (typeof status === 'number') {
    const described = describeApiError(errorMessage(error));
    return {
      errorCode: String(status),
      errorMessage: `Gemini API error ${status}${described.status ? ` ${described.status}` : ''} for model "${model}": ${described.message}`,
    };
  }
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (error instanceof TypeError && /fetch failed|network/i.test(error.message)) {
    return {
      errorCode: 'CONNECTION_ERROR',
      errorMessage: `Could not reach the Gemini API for model "${model}": ${error.message}${cause ? ` (${errorMessage(cause)})` : ''}`,
    };
  }
  return { errorCode: 'MODEL_ERROR', errorMessage: `Gemini request for model "${model}" failed: ${errorMessage(error)}` };
}
