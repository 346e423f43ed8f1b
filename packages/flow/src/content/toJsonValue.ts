import { setOwnProperty } from './ownProperty.js';
import { MAX_VALUE_DEPTH } from './valueDepth.js';

/**
 * Copies a value as plain JSON data, or throws naming the first thing that is not JSON
 * (a BigInt, a function, a symbol, a cycle, a non-finite number). `undefined` object fields are
 * dropped, as JSON does; `toJSON()` is honoured (dates become strings); `__proto__` keys stay data;
 * nesting deeper than `MAX_VALUE_DEPTH` is refused.
 */
export function toJsonValue(value: unknown): unknown {
  return new JsonCopy().copy(value);
}

/**
 * One copy in progress: the objects it is inside (a cycle, the depth) and the keys that lead to
 * the value being copied, which become its path only when something is refused (no path string
 * joined per key, #24).
 */
class JsonCopy {
  private readonly ancestors = new Set<object>();
  private readonly keys: (string | number)[] = [];

  /** Where the value being copied is, as `$.a[0].b`. */
  private path(): string {
    let path = '$';
    for (const key of this.keys) path += typeof key === 'number' ? `[${key}]` : `.${key}`;
    return path;
  }

  copy(value: unknown): unknown {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value;
      case 'number':
        if (!Number.isFinite(value)) throw new TypeError(`${this.path()} is ${value}, which JSON cannot represent`);
        return value;
      case 'bigint':
        throw new TypeError(`${this.path()} is a BigInt (${value}n); convert it to a number or a string`);
      case 'function':
        throw new TypeError(`${this.path()} is a function`);
      case 'symbol':
        throw new TypeError(`${this.path()} is a symbol`);
      case 'undefined':
        return null;
    }
    if (value === null) return null;
    const object = value as object;
    if (typeof (object as { toJSON?: unknown }).toJSON === 'function') return this.copy((object as { toJSON(): unknown }).toJSON());
    const { ancestors, keys } = this;
    if (ancestors.has(object)) throw new TypeError(`${this.path()} refers back to one of its ancestors (a cycle)`);
    if (ancestors.size >= MAX_VALUE_DEPTH)
      throw new TypeError(`${this.path().slice(0, 80)}… nests deeper than ${MAX_VALUE_DEPTH} levels; flatten the data`);
    ancestors.add(object);
    try {
      if (Array.isArray(object))
        return object.map((item, i) => {
          keys.push(i);
          const copied = this.copy(item);
          keys.pop();
          return copied;
        });
      if (object instanceof Map || object instanceof Set)
        throw new TypeError(`${this.path()} is a ${object.constructor.name}; convert it to an object or an array`);
      const result: Record<string, unknown> = {};
      for (const key in object) {
        // Own keys only, as Object.entries gives them, without its array of pairs.
        if (!Object.hasOwn(object, key)) continue;
        const item = (object as Record<string, unknown>)[key];
        if (item === undefined) continue;
        keys.push(key);
        setOwnProperty(result, key, this.copy(item));
        keys.pop();
      }
      return result;
    } finally {
      ancestors.delete(object);
    }
  }
}
