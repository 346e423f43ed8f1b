/**
 * Sets `target[key] = value` as an own data property, also for `__proto__`, whose plain assignment
 * would change the target's prototype instead of storing the value (a key any JSON from a model
 * or a user can carry).
 */
export function setOwnProperty(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** The own value at `key`, never one inherited from `Object.prototype` (`constructor`, `toString`). */
export function ownValue(source: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(source, key) ? source[key] : undefined;
}

/** Whether `value` has an own enumerable key (what `Object.keys(value).length > 0` says, without the array). */
export function hasOwnKeys(value: object | undefined): boolean {
  for (const key in value) if (Object.hasOwn(value!, key)) return true;
  return false;
}

/** A shallow copy of a plain object that keeps `__proto__` keys as data. */
export function copyOwn(source: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  assignOwn(copy, source);
  return copy;
}

/**
 * `target[prefix + key] = source[key]` for each own key of `source`, `__proto__` kept as data
 * (`Object.assign` would change the target's prototype instead). A walk, not `Object.keys` or
 * `Object.entries`: a session read or an applied event pays for no array of them (#24).
 */
export function assignOwn(target: Record<string, unknown>, source: Record<string, unknown>, prefix = ''): void {
  for (const key in source) if (Object.hasOwn(source, key)) setOwnProperty(target, prefix + key, source[key]);
}
