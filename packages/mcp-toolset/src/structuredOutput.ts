import { mediaLabel } from './formatContent.js';

/** How deep and how many nodes `withoutMediaData` looks at; what lies beyond is kept as is. */
const MAX_DEPTH = 32;
const MAX_NODES = 10_000;

/**
 * The structured content with the base64 `data` of image and audio blocks (`{type: "image",
 * data, mimeType}`) replaced by their label, so the bytes never reach the model as JSON text (the
 * filesystem server repeats `read_media_file`'s image there). Copies only what it changes; looks
 * 32 levels deep and at 10,000 nodes at most. Keys such as `__proto__` stay plain data.
 */
export function withoutMediaData(value: Record<string, unknown>): Record<string, unknown> {
  const budget = { nodes: MAX_NODES };
  return replace(value, 0, budget) as Record<string, unknown>;
}

function replace(value: unknown, depth: number, budget: { nodes: number }): unknown {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH || budget.nodes-- <= 0) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const replaced = replace(item, depth + 1, budget);
      if (replaced !== item) (copy ??= value.slice())[i] = replaced;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  if ((record.type === 'image' || record.type === 'audio') && typeof record.data === 'string') {
    const mimeType = typeof record.mimeType === 'string' ? record.mimeType : '';
    return withOwn({ ...record }, 'data', mediaLabel(record.type, mimeType, record.data));
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const item = record[key];
    const replaced = replace(item, depth + 1, budget);
    if (replaced !== item) withOwn((copy ??= { ...record }), key, replaced);
  }
  return copy ?? record;
}

/** Sets an own data property, also for keys like `__proto__` that plain assignment treats specially. */
function withOwn(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}
