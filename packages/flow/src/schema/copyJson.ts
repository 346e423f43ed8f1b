/**
 * A copy of the plain objects and arrays in a value, for changing it without touching the caller's
 * (other objects, such as a Date, are shared). Iterative, so a value nested 10,000 levels deep is
 * copied without exhausting the stack; keys such as `__proto__` stay own data; a cycle is kept as
 * a cycle.
 */
export function copyJson(value: unknown): unknown {
  if (!isContainer(value)) return value;
  const copies = new Map<object, Record<string, unknown> | unknown[]>();
  const root = emptyLike(value);
  copies.set(value, root);
  const pending: [object, Record<string, unknown> | unknown[]][] = [[value, root]];
  while (pending.length > 0) {
    const [source, target] = pending.pop()!;
    for (const key of Object.keys(source)) {
      const child = (source as Record<string, unknown>)[key];
      let copy: unknown = child;
      if (isContainer(child)) {
        let existing = copies.get(child);
        if (!existing) {
          existing = emptyLike(child);
          copies.set(child, existing);
          pending.push([child, existing]);
        }
        copy = existing;
      }
      if (Array.isArray(target)) target[Number(key)] = copy;
      // A plain write keeps the copy a fast object; only `__proto__` needs defining as own data.
      else if (key === '__proto__') Object.defineProperty(target, key, { value: copy, writable: true, enumerable: true, configurable: true });
      else target[key] = copy;
    }
  }
  return root;
}

function isContainer(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function emptyLike(value: object): Record<string, unknown> | unknown[] {
  return Array.isArray(value) ? new Array<unknown>((value as unknown[]).length) : {};
}
