// The own-key helpers the flow and the stores use on data from models, users and tools, tried with
// `__proto__` keys, a polluted Object.prototype and objects without a prototype.
import { describe, expect, it } from 'vitest';
import { assignOwn, copyOwn, hasOwnKeys, ownValue, setOwnProperty } from '../src/content/ownProperty.js';

describe('own properties', () => {
  it('hasOwnKeys: own enumerable keys only, never inherited ones, also from a polluted Object.prototype', () => {
    expect(hasOwnKeys(undefined)).toBe(false);
    expect(hasOwnKeys({})).toBe(false);
    expect(hasOwnKeys(Object.create(null) as object)).toBe(false);
    expect(hasOwnKeys(JSON.parse('{"__proto__": 1}') as object)).toBe(true);
    expect(hasOwnKeys(Object.defineProperty({}, 'hidden', { value: 1, enumerable: false }))).toBe(false);
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.polluted = 'x';
    try {
      expect(hasOwnKeys({})).toBe(false);
      expect(hasOwnKeys(Object.create({ inherited: 1 }) as object)).toBe(false);
      expect(hasOwnKeys({ a: 1 })).toBe(true);
    } finally {
      delete prototype.polluted;
    }
  });

  it('setOwnProperty and copyOwn keep __proto__ as data; ownValue reads no inherited value', () => {
    const target: Record<string, unknown> = {};
    setOwnProperty(target, '__proto__', { evil: true });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    const copy = copyOwn(target);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(ownValue({}, 'toString')).toBeUndefined();
  });

  it('assignOwn copies own keys only, under a prefix when given, __proto__ as data', () => {
    const source = Object.setPrototypeOf(JSON.parse('{"__proto__": {"evil": true}, "a": 1}'), { inherited: 2 }) as Record<string, unknown>;
    const target: Record<string, unknown> = { kept: 0 };
    assignOwn(target, source);
    assignOwn(target, source, 'app:');
    expect(Object.keys(target)).toEqual(['kept', '__proto__', 'a', 'app:__proto__', 'app:a']);
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(target.inherited).toBeUndefined();
  });
});
