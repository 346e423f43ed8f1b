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
    const children: unknown[] = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) if (isFreezable(child)) stack.push(child);
  }
  return value;
}

function isFreezable(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return false;
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
