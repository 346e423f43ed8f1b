import { errorMessage } from '../errors.js';
import type { LlmResponse } from './llmResponse.js';

/**
 * The error response for a stream that ended before the answer was complete (`INCOMPLETE_STREAM`):
 * whatever arrived is dropped, so that a half-received answer never looks complete and no call is
 * made from partial arguments.
 */
export function incompleteStreamResponse(provider: string, model: string, how: string): LlmResponse {
  return {
    errorCode: 'INCOMPLETE_STREAM',
    errorMessage: `The ${provider} stream for model "${model}" ${how}; the answer is incomplete, so it was dropped.`,
  };
}

/** The error response for a 2xx reply that carries no answer (`EMPTY_RESPONSE`), saying what came. */
export function emptyReplyResponse(provider: string, model: string, what: string): LlmResponse {
  return { errorCode: 'EMPTY_RESPONSE', errorMessage: `${provider} returned no answer for model "${model}": ${what}.` };
}

/** `1 event`, `3 events`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Reading an SDK stream failed after `items` items: the connection was cut, or an item could not be read. */
export class BrokenStreamError extends Error {
  readonly items: number;

  constructor(items: number, cause: unknown) {
    super(`stream broke off: ${errorMessage(cause)}`, { cause });
    this.name = 'BrokenStreamError';
    this.items = items;
  }
}

/** True for a `BrokenStreamError` (checked by name, so copies of this module agree). */
export function isBrokenStream(error: unknown): error is BrokenStreamError {
  return (error as { name?: unknown } | null)?.name === 'BrokenStreamError';
}

/**
 * The items of an SDK stream. A failure to read the next one that `isApiError` does not recognise
 * as an error the API sent is thrown as `BrokenStreamError`, told apart from errors of the code
 * handling each item; leaving early returns the SDK stream.
 */
export async function* readStream<T>(
  stream: AsyncIterable<T> | Iterable<T>,
  isApiError: (error: unknown) => boolean,
): AsyncGenerator<T> {
  let items = 0;
  try {
    for await (const item of stream) {
      items++;
      yield item;
    }
  } catch (error) {
    throw isApiError(error) ? error : new BrokenStreamError(items, error);
  }
}

/**
 * The error response for a broken stream: `EMPTY_RESPONSE` when nothing had arrived, else
 * `INCOMPLETE_STREAM` (what arrived is dropped). `unit` names the stream's items (`event`, `chunk`).
 */
export function brokenStreamResponse(provider: string, model: string, error: BrokenStreamError, unit: string): LlmResponse {
  const cause = error.cause as { cause?: unknown } | undefined;
  const why = `${errorMessage(error.cause)}${cause?.cause ? `: ${errorMessage(cause.cause)}` : ''}`;
  if (error.items === 0) return emptyReplyResponse(provider, model, `the stream broke off before any ${unit} (${why})`);
  return incompleteStreamResponse(provider, model, `broke off after ${count(error.items, unit)} (${why})`);
}
