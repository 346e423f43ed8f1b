import { fetch, type Response } from 'undici';
import type { AddressPolicy } from './addressPolicy.js';
import type { BuiltRequest } from './buildRequest.js';

/** What a call returns to the model. */
export interface ApiResponse {
  status: number;
  /** A safe subset of the response headers (never cookies or auth challenges). */
  headers: Record<string, string>;
  /** Parsed JSON, the text, or a note for binary content. */
  body: unknown;
  /** Set when the body was longer than `maxResponseBytes` and was cut there. */
  truncated?: true;
}

/** How responses are read. */
export interface SendOptions {
  policy: AddressPolicy;
  maxResponseBytes: number;
  maxRedirects: number;
  signal: AbortSignal;
}

/** The response headers a model may see. */
const SAFE_HEADERS = [
  'content-type',
  'content-length',
  'content-language',
  'etag',
  'last-modified',
  'location',
  'link',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-request-id',
  'x-total-count',
];

/** A failure to reach the API at all (refused address, network error); the message is for the model. */
export class TransportProblem extends Error {}

/**
 * Sends the request with `fetch` (undici's, through the address policy's pool, which checks the
 * address again when it connects) and reads the answer within the budget. Redirects are followed
 * by hand (at most `maxRedirects`), each hop's host checked by the address policy; a hop to
 * another origin loses every credential header (`authorization`, `cookie`, the API key's). The
 * body is streamed and cut at `maxResponseBytes`, the rest cancelled unread (a 1 GB answer costs
 * one budget).
 */
export async function sendRequest(request: BuiltRequest, options: SendOptions): Promise<ApiResponse> {
  let url = request.url;
  let method = request.method;
  let body = request.body;
  const headers = new Headers(request.headers);
  for (let hop = 0; ; hop++) {
    try {
      await options.policy.check(url.hostname);
    } catch (error) {
      throw new TransportProblem((error as Error).message);
    }
    const response = await fetch(url, {
      method,
      headers,
      redirect: 'manual',
      signal: options.signal,
      dispatcher: options.policy.dispatcher(),
      ...(body !== undefined ? { body } : {}),
    });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null && response.status !== 304) {
      await response.body?.cancel();
      if (hop >= options.maxRedirects) throw new TransportProblem(`the API redirected more than ${options.maxRedirects} times`);
      const next = new URL(location, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new TransportProblem(`the API redirected to a ${next.protocol} URL, which is not followed`);
      if (next.origin !== url.origin) for (const name of request.secretHeaders) headers.delete(name);
      // A query credential stays with the URL it was put on: the Location decides the next one.
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
      }
      url = next;
      continue;
    }
    return readResponse(response, options.maxResponseBytes);
  }
}

async function readResponse(response: Response, budget: number): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  for (const name of SAFE_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value.length > 1_000 ? `${value.slice(0, 1_000)}…` : value;
  }
  const type = (response.headers.get('content-type') ?? '').toLowerCase();
  const { bytes, truncated } = await readBytes(response, budget);
  const result: ApiResponse = { status: response.status, headers, body: decodeBody(type, bytes, truncated) };
  if (truncated) result.truncated = true;
  return result;
}

async function readBytes(response: Response, budget: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(0), truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: concat(chunks, size), truncated: false };
      const room = budget - size;
      if (value.byteLength > room) {
        if (room > 0) chunks.push(value.subarray(0, room));
        size = budget;
        await reader.cancel();
        return { bytes: concat(chunks, size), truncated: true };
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    reader.releaseLock();
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** How deep a JSON answer may nest and still be given as JSON (below the flow's MAX_VALUE_DEPTH). */
const MAX_JSON_DEPTH = 64;

/** Whether the value nests at most `max` levels (iterative: a deep value cannot exhaust the stack). */
function depthAtMost(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return false;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return true;
}

function isTextual(type: string): boolean {
  return (
    type === '' ||
    type.startsWith('text/') ||
    type.includes('json') ||
    type.includes('xml') ||
    type.includes('yaml') ||
    type.startsWith('application/x-www-form-urlencoded') ||
    type.startsWith('application/javascript')
  );
}

function decodeBody(type: string, bytes: Uint8Array, truncated: boolean): unknown {
  if (bytes.byteLength === 0) return null;
  if (!isTextual(type)) return `(${bytes.byteLength}${truncated ? '+' : ''} bytes of ${type.split(';')[0]}, not shown)`;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (!truncated && type.includes('json')) {
    try {
      const value = JSON.parse(text) as unknown;
      // JSON nested deeper than sessions keep is given as text, so one answer cannot break a run.
      return depthAtMost(value, MAX_JSON_DEPTH) ? value : text;
    } catch {
      return text;
    }
  }
  return truncated ? `${text}…` : text;
}
