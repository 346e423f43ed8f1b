import { guardedFetch, type FetchFunction } from '@adkit/flow/model-kit';
import type { GoogleGenAI } from '@google/genai';

// Node's fetch runs on undici's global dispatcher, published under this symbol.
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

interface Dispatcher {
  dispatch(options: Record<string, unknown>, handler: unknown): boolean;
}

/**
 * A dispatcher over the global one without undici's 300 s header and body timeouts, which
 * `@google/genai` uses for its own fetches (long generations take longer); the SDK stops adding it
 * once a fetch is given, so the adapter adds it back. The SDK's `timeout` still applies.
 */
const untimedDispatcher: Dispatcher = {
  dispatch(options, handler) {
    if (!(GLOBAL_DISPATCHER in globalThis)) new Headers(); // makes Node create its dispatcher
    const global = (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER] as Dispatcher | undefined;
    if (typeof global?.dispatch !== 'function') throw new Error("Node's fetch dispatcher is not available");
    return global.dispatch({ ...options, headersTimeout: 0, bodyTimeout: 0 }, handler);
  },
};

/**
 * The fetch each request of the adapter uses: the client's own (`httpOptions.fetch`) or Node's,
 * guarded so that a reply body over `maxBytes` is cut off (`ResponseTooLargeError`).
 */
export function answerFetch(client: GoogleGenAI, configured: FetchFunction | undefined, maxBytes: number): FetchFunction {
  // A client made elsewhere keeps its options inside; its fetch (a proxy, say) must still be used.
  const given =
    configured ??
    (client as unknown as { apiClient?: { clientOptions?: { httpOptions?: { fetch?: FetchFunction } } } }).apiClient?.clientOptions?.httpOptions?.fetch;
  const base: FetchFunction =
    given ?? ((input, init) => fetch(input, { ...init, ...(init && 'dispatcher' in init ? {} : { dispatcher: untimedDispatcher }) } as RequestInit));
  return guardedFetch(base, { maxBytes });
}
