/** Limits of `displayValue`: what the page can show without choking. */
export interface DisplayLimits {
  /** Longer strings keep their head and say how much was cut (default 20,000 characters). */
  maxString: number;
  /** Deeper values become a note (default 40 levels). */
  maxDepth: number;
  /** Larger arrays and objects keep their first entries and say how many were cut (default 1,000). */
  maxEntries: number;
}

export const DEFAULT_DISPLAY_LIMITS: DisplayLimits = { maxString: 20_000, maxDepth: 40, maxEntries: 1_000 };

/**
 * A JSON copy of any value, small enough to render: long strings, deep nesting and huge
 * collections are cut with a note saying so; what JSON cannot hold (functions, BigInts, cycles,
 * non-finite numbers) becomes a describing string; `__proto__` keys stay data. Never throws and
 * never recurses deeper than `maxDepth`, whatever it is given.
 */
export function displayValue(value: unknown, limits: DisplayLimits = DEFAULT_DISPLAY_LIMITS): unknown {
  return copy(value, limits, 0, new Set());
}

function copy(value: unknown, limits: DisplayLimits, depth: number, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
      return clipString(value, limits.maxString);
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return `${value}n`;
    case 'undefined':
      return null;
    case 'function':
      return `[function ${(value as { name?: string }).name || 'anonymous'}]`;
    case 'symbol':
      return `[${String(value)}]`;
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.has(object)) return '[cycle]';
  if (depth >= limits.maxDepth) return `[nested deeper than ${limits.maxDepth} levels]`;
  if (object instanceof Uint8Array) return `[${object.byteLength} bytes]`;
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? '[invalid date]' : object.toISOString();
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      const items = object.slice(0, limits.maxEntries).map((item) => copy(item, limits, depth + 1, ancestors));
      if (object.length > limits.maxEntries) items.push(`[${object.length - limits.maxEntries} more items]`);
      return items;
    }
    if (object instanceof Map || object instanceof Set) return `[${object.constructor.name} of ${object.size}]`;
    const result: Record<string, unknown> = {};
    let count = 0;
    for (const key in object) {
      if (!Object.hasOwn(object, key)) continue;
      if (count === limits.maxEntries) {
        setData(result, '…', `[more keys not shown]`);
        break;
      }
      let item: unknown;
      try {
        item = (object as Record<string, unknown>)[key];
      } catch {
        item = '[getter threw]';
      }
      if (item === undefined) continue;
      setData(result, clipString(key, 200), copy(item, limits, depth + 1, ancestors));
      count++;
    }
    return result;
  } finally {
    ancestors.delete(object);
  }
}

/** The string, or its head and a note of how many characters were cut. */
export function clipString(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

/** `target[key] = value` as an own data property, also for `__proto__`. */
export function setData(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
