import { setOwnProperty } from './ownProperty.js';

/**
 * A deep copy of data: plain objects and arrays are copied by hand (several times faster than
 * `structuredClone` for the small objects events are made of); anything else that is an object
 * (a Date, a Map, a typed array) goes through `structuredClone`, which throws on what it cannot
 * copy (a function, a class instance with private state). Keys such as `__proto__` are kept as
 * data. Callers bound the depth first (`exceedsDepth`): the copy recurses.
 */
export function cloneData<T>(value: T): T {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'function' || typeof value === 'symbol') return structuredClone(value);
    return value;
  }
  if (Array.isArray(value)) {
    const copy = new Array(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = cloneData(value[i]);
    return copy as T;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key in value as Record<string, unknown>) setOwnProperty(copy, key, cloneData((value as Record<string, unknown>)[key]));
  return copy as T;
}
