import { setOwnProperty } from './ownProperty.js';
import { MAX_VALUE_DEPTH } from './valueDepth.js';

/**
 * Copies a value as plain JSON data, or throws naming the first thing that is not JSON
 * (a BigInt, a function, a symbol, a cycle, a non-finite number). `undefined` object fields are
 * dropped, as JSON does; `toJSON()` is honoured (dates become strings); `__proto__` keys stay data;
 * nesting deeper than `MAX_VALUE_DEPTH` is refused.
 */
export function toJsonValue(value: unknown): unknown {
  return copy(value, '$', new Set());
}

function copy(value: unknown, path: string, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${path} is ${value}, which JSON cannot represent`);
      return value;
    case 'bigint':
      throw new TypeError(`${path} is a BigInt (${value}n); convert it to a number or a string`);
    case 'function':
      throw new TypeError(`${path} is a function`);
    case 'symbol':
      throw new TypeError(`${path} is a symbol`);
    case 'undefined':
      return null;
  }
  if (value === null) return null;
  const object = value as object;
  if (typeof (object as { toJSON?: unknown }).toJSON === 'function')
    return copy((object as { toJSON(): unknown }).toJSON(), path, ancestors);
  if (ancestors.has(object)) throw new TypeError(`${path} refers back to one of its ancestors (a cycle)`);
  if (ancestors.size >= MAX_VALUE_DEPTH)
    throw new TypeError(`${path.slice(0, 80)}… nests deeper than ${MAX_VALUE_DEPTH} levels; flatten the data`);
  ancestors.add(object);
  try {
    if (Array.isArray(object)) return object.map((item, i) => copy(item, `${path}[${i}]`, ancestors));
    if (object instanceof Map || object instanceof Set)
      throw new TypeError(`${path} is a ${object.constructor.name}; convert it to an object or an array`);
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(object)) {
      if (item === undefined) continue;
      setOwnProperty(result, key, copy(item, `${path}.${key}`, ancestors));
    }
    return result;
  } finally {
    ancestors.delete(object);
  }
}
