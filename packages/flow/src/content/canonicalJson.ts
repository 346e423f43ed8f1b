import { createHash } from 'node:crypto';
import type { FunctionCall } from './content.js';

/** JSON with object keys sorted at every level, so equal data always gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/** A digest binding an approval to one exact call: its id, tool name and arguments. */
export function functionCallDigest(call: FunctionCall): string {
  return createHash('sha256')
    .update(`${call.id ?? ''}\n${call.name}\n${canonicalJson(call.args ?? {})}`)
    .digest('hex');
}
