import { setOwnProperty } from './ownProperty.js';

/**
 * A deep copy of data: plain objects and arrays are copied by hand (several times faster than
 * `structuredClone` for the small objects events are made of); anything else that is an object
 * (a Date, a Map, a typed array) goes through `structuredClone`, which throws on what it cannot
 * copy (a function, a class instance with private state). Keys such as `__proto__` are kept as
 * data. It uses its own stack, so a value nested a million levels deep is copied without a stack
 * overflow (callers that store values still bound their depth: `exceedsDepth`).
 */
export function cloneData<T>(value: T): T {
  return copyData(value, false);
}

/**
 * `cloneData`, with every copied array and plain object frozen as it is filled: what
 * `deepFreeze(cloneData(value))` gives, in one walk instead of two (#24: a stored event is copied
 * and frozen once). Values that went through `structuredClone` (a Date, a typed array) are left
 * unfrozen, as `deepFreeze` leaves them.
 */
export function frozenCopy<T>(value: T): T {
  return copyData(value, true);
}

function copyData<T>(value: T, freeze: boolean): T {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'function' || typeof value === 'symbol') return structuredClone(value);
    return value;
  }
  const root = shallowCopy(value as object);
  const stack: [source: object, target: Record<string, unknown> | unknown[]][] = [];
  if (root.copied) stack.push([value as object, root.copy as Record<string, unknown> | unknown[]]);
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    if (Array.isArray(source)) {
      const array = target as unknown[];
      for (let i = 0; i < source.length; i++) array[i] = copyChild(source[i], stack);
    } else {
      const object = target as Record<string, unknown>;
      for (const key in source as Record<string, unknown>)
        setOwnProperty(object, key, copyChild((source as Record<string, unknown>)[key], stack));
    }
    // Filled: its children are copies of their own (frozen when their turn comes), so freezing
    // the target now never freezes something another caller holds.
    if (freeze) Object.freeze(target);
  }
  return root.copy as T;
}

function copyChild(child: unknown, stack: [object, Record<string, unknown> | unknown[]][]): unknown {
  if (typeof child !== 'object' || child === null) {
    if (typeof child === 'function' || typeof child === 'symbol') return structuredClone(child);
    return child;
  }
  const { copy, copied } = shallowCopy(child);
  if (copied) stack.push([child, copy as Record<string, unknown> | unknown[]]);
  return copy;
}

/** An empty array or plain object to fill (`copied`), or a finished structured clone. */
function shallowCopy(value: object): { copy: unknown; copied: boolean } {
  if (Array.isArray(value)) return { copy: new Array(value.length), copied: true };
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return { copy: structuredClone(value), copied: false };
  return { copy: {}, copied: true };
}
