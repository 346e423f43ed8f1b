import type { FunctionCall } from './content.js';

/** JSON with object keys sorted at every level, so equal data always gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    Object.defineProperty(sorted, key, {
      value: sortKeys((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return sorted;
}

/**
 * SHA-256 of the text as hex, or HMAC-SHA-256 keyed with `secret` when one is given. Web Crypto,
 * so the core runs wherever `globalThis.crypto` does (Node, Deno, Bun, browsers, workers).
 */
export async function digestText(text: string, secret?: string): Promise<string> {
  const data = new TextEncoder().encode(text);
  let bytes: ArrayBuffer;
  if (secret === undefined) bytes = await crypto.subtle.digest('SHA-256', data);
  else {
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    bytes = await crypto.subtle.sign('HMAC', key, data);
  }
  return [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The digest of confirmation requests of format 1 (adkit before the protocol had a version):
 * SHA-256 of the call's id, tool name and canonical arguments.
 */
export function functionCallDigest(call: FunctionCall): Promise<string> {
  return digestText(`${call.id ?? ''}\n${call.name}\n${canonicalJson(call.args ?? {})}`);
}
