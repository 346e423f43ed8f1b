import { MAX_VALUE_DEPTH } from '../content/valueDepth.js';

/** A value may nest `MAX_VALUE_DEPTH` levels below where the event holds it (`content.parts[i].functionResponse.response`). */
const MAX_DEPTH = MAX_VALUE_DEPTH + 8;

/**
 * Serializes session data as JSON text for a durable store, refusing what JSON would silently
 * change or drop, so that what is read back equals what was stored (the in-memory service keeps
 * values as they are): a `Date`, `Map`, class instance, `BigInt`, `NaN`, function, cycle,
 * `undefined` in an array, or nesting deeper than `MAX_VALUE_DEPTH` (plus the event's own levels). Throws a `TypeError` naming
 * the first offending path and the fix.
 */
export function toJsonText(value: unknown, path: string): string {
  check(value, path, new Set());
  return JSON.stringify(value);
}

function check(value: unknown, path: string, ancestors: Set<object>): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${path} is ${value}, which JSON cannot hold; store a finite number or null`);
      return;
    case 'bigint':
      throw new TypeError(`${path} is a BigInt (${value}n); store it as a number or a string`);
    case 'function':
    case 'symbol':
      throw new TypeError(`${path} is a ${typeof value}; store plain data (strings, numbers, booleans, null, arrays, objects)`);
    case 'undefined':
      throw new TypeError(`${path} is undefined inside an array; use null`);
  }
  if (value === null) return;
  const object = value as object;
  if (ancestors.has(object)) throw new TypeError(`${path} refers back to one of its ancestors (a cycle)`);
  if (ancestors.size >= MAX_DEPTH)
    throw new TypeError(`${path.slice(0, 80)}… nests deeper than ${MAX_DEPTH} levels; flatten the data`);
  const prototype: unknown = Object.getPrototypeOf(object);
  if (!Array.isArray(object) && prototype !== Object.prototype && prototype !== null) {
    const kind = (object as { constructor?: { name?: string } }).constructor?.name || 'non-plain object';
    throw new TypeError(
      kind === 'Date'
        ? `${path} is a Date; store date.toISOString() or date.getTime()`
        : `${path} is a ${kind}; store a plain object or an array instead`,
    );
  }
  ancestors.add(object);
  if (Array.isArray(object)) object.forEach((item: unknown, i) => check(item, `${path}[${i}]`, ancestors));
  else
    for (const [key, item] of Object.entries(object))
      if (item !== undefined) check(item, `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`, ancestors);
  ancestors.delete(object);
}
