/**
 * Freezes plain data in place, all the way down, and returns it: what session services do to the
 * events they store, so every reader can share them without a copy (a change throws a
 * `TypeError` in strict code instead of corrupting the store). Arrays and plain objects are
 * frozen; other objects (a `Uint8Array`, a `Date`) are left as they are. Iterative, so deeply
 * nested data does not exhaust the stack; an object already frozen is taken as frozen through,
 * which also stops at cycles.
 */
export function deepFreeze<T>(value: T): T {
  if (!isFreezable(value)) return value;
  const stack: object[] = [value];
  while (stack.length > 0) {
    const current = stack.pop()!;
    Object.freeze(current);
    // Walked by index and key: no array of values made per object (#24).
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) if (isFreezable(current[i])) stack.push(current[i] as object);
    } else
      for (const key in current)
        if (Object.hasOwn(current, key)) {
          const child: unknown = (current as Record<string, unknown>)[key];
          if (isFreezable(child)) stack.push(child);
        }
  }
  return value;
}

function isFreezable(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return false;
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
