import { errorMessage, type LlmResponse } from '@adkit/flow';
import { isApiError } from './errorResponse.js';
import { count, emptyReply, incompleteStream } from './unusableReply.js';

/** Reading an SDK stream failed after `chunks` chunks: the connection was cut, or a chunk could not be read. */
export class BrokenStreamError extends Error {
  readonly chunks: number;

  constructor(chunks: number, cause: unknown) {
    super(`stream broke off: ${errorMessage(cause)}`, { cause });
    this.name = 'BrokenStreamError';
    this.chunks = chunks;
  }
}

/**
 * The chunks of an SDK stream. A failure to read the next one that is not an error the API sent
 * is thrown as `BrokenStreamError`, told apart from errors of the code handling each chunk;
 * leaving early returns the SDK stream.
 */
export async function* readStream<T>(stream: AsyncIterable<T>): AsyncGenerator<T> {
  let chunks = 0;
  try {
    for await (const chunk of stream) {
      chunks++;
      yield chunk;
    }
  } catch (error) {
    throw isApiError(error) ? error : new BrokenStreamError(chunks, error);
  }
}

/** True for a `BrokenStreamError` (checked by name, so copies of this module agree). */
export function isBrokenStream(error: unknown): error is BrokenStreamError {
  return (error as { name?: unknown } | null)?.name === 'BrokenStreamError';
}

/**
 * The error response for a broken stream: `EMPTY_RESPONSE` when no chunk had arrived, else
 * `INCOMPLETE_STREAM` (what arrived is dropped).
 */
export function brokenStream(model: string, error: BrokenStreamError): LlmResponse {
  const cause = error.cause as { cause?: unknown } | undefined;
  const why = `${errorMessage(error.cause)}${cause?.cause ? `: ${errorMessage(cause.cause)}` : ''}`;
  if (error.chunks === 0) return emptyReply(model, `the stream broke off before any chunk (${why})`);
  return incompleteStream(model, `broke off after ${count(error.chunks, 'chunk')} (${why})`);
}
