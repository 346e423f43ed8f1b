import { describe, expect, it } from 'vitest';
import { cloneData } from '../src/content/cloneData.js';

describe('cloneData', () => {
  it('deep-copies plain data, keeps undefined and null-prototype objects, and copies dates and maps faithfully', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { k: [1] });
    const input = { a: [1, { b: 'x' }], u: undefined, n: null, d: new Date(5), m: new Map([[1, { z: 1 }]]), bare };
    const copy = cloneData(input);
    expect(copy).toEqual(input);
    expect(copy.a[1]).not.toBe(input.a[1]);
    expect(copy.d).not.toBe(input.d);
    expect(copy.d.getTime()).toBe(5);
    expect(copy.m.get(1)).toEqual({ z: 1 });
    expect(copy.bare.k).not.toBe(bare.k);
    expect('u' in copy).toBe(true);
  });

  it('refuses what cannot be copied, like structuredClone', () => {
    expect(() => cloneData({ f: () => 1 })).toThrow();
    expect(() => cloneData({ s: Symbol('x') })).toThrow();
  });
});
