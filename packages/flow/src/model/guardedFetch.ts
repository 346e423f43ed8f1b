import { AdkitError } from '../errors.js';

/** The `fetch` shape SDKs accept as an option (`openai`'s `fetch`, `@google/genai`'s `httpOptions.fetch`). */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** What `guardedFetch` enforces on every reply body. */
export interface FetchGuard {
  /** The most bytes a reply body may have, counted as the SDK reads them (after decompression). */
  readonly maxBytes: number;
  /** The longest pause between two chunks of a reply body, in ms; none when absent. */
  readonly idleTimeoutMs?: number;
}

/** The default size limit of model answers in the adapters: 64 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * A reply body grew past the adapter's `maxResponseBytes`: the rest was not read (the connection
 * was closed), so a huge answer costs no more memory than the limit. `code`: `RESPONSE_TOO_LARGE`.
 */
export class ResponseTooLargeError extends AdkitError {
  constructor(readonly limit: number) {
    super('RESPONSE_TOO_LARGE', `the reply is larger than ${limit} bytes (maxResponseBytes)`);
    this.name = 'ResponseTooLargeError';
  }
}

/**
 * A reply body sent nothing for longer than the adapter's `timeout`: the stream stalled after its
 * headers, and was closed. `code`: `RESPONSE_STALLED`.
 */
export class ResponseStalledError extends AdkitError {
  constructor(readonly idleTimeoutMs: number) {
    super('RESPONSE_STALLED', `the reply stalled: nothing arrived for ${idleTimeoutMs} ms (timeout)`);
    this.name = 'ResponseStalledError';
  }
}

/**
 * A `fetch` for an SDK that enforces `guard` on every reply body: past `maxBytes` the body errors
 * with `ResponseTooLargeError`, after `idleTimeoutMs` without a chunk with `ResponseStalledError`;
 * either way the underlying body is cancelled, which closes the connection. A `content-length` over
 * the limit fails before anything is read. Give the SDK this in place of its fetch, then recognise
 * the error with `fetchGuardError` whatever the SDK wrapped it in.
 */
export function guardedFetch(base: FetchFunction, guard: FetchGuard): FetchFunction {
  return async (input, init) => {
    const response = await base(input, init);
    const body = response.body;
    if (!body) return response;
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > guard.maxBytes) {
      await body.cancel().catch(() => {});
      throw new ResponseTooLargeError(guard.maxBytes);
    }
    return new Response(guardedBody(body, guard), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function guardedBody(source: ReadableStream<Uint8Array>, guard: FetchGuard): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let received = 0;
  let timer: NodeJS.Timeout | undefined;
  const stop = (controller: ReadableStreamDefaultController<Uint8Array>, error: Error) => {
    clearTimeout(timer);
    controller.error(error);
    reader.cancel(error).catch(() => {});
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const idle = guard.idleTimeoutMs;
      if (idle !== undefined) timer = setTimeout(() => stop(controller, new ResponseStalledError(idle)), idle);
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        clearTimeout(timer);
        // Already errored by the timer: that error stands.
        try {
          controller.error(error);
        } catch {
          // ignore
        }
        return;
      } finally {
        clearTimeout(timer);
      }
      if (chunk.done) {
        try {
          controller.close();
        } catch {
          // errored meanwhile
        }
        return;
      }
      received += chunk.value.byteLength;
      if (received > guard.maxBytes) {
        stop(controller, new ResponseTooLargeError(guard.maxBytes));
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      clearTimeout(timer);
      return reader.cancel(reason);
    },
  });
}

/** The `ResponseTooLargeError` or `ResponseStalledError` in an error or its causes, however wrapped. */
export function fetchGuardError(error: unknown): ResponseTooLargeError | ResponseStalledError | undefined {
  const seen = new Set<unknown>();
  for (let current = error; typeof current === 'object' && current !== null && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    if (current instanceof ResponseTooLargeError || current instanceof ResponseStalledError) return current;
    const named = current as { name?: unknown; code?: unknown };
    if (named.code === 'RESPONSE_TOO_LARGE' || named.code === 'RESPONSE_STALLED') return current as ResponseTooLargeError | ResponseStalledError;
  }
  return undefined;
}
