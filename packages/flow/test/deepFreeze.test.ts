import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../src/sessions/deepFreeze.js';

// deepFreeze walks objects by key and arrays by index (#24: no array of values per object); what
// it freezes must stay exactly what it did: own data only, all the way down, nothing else.
describe('deepFreeze', () => {
  it('freezes every plain object and array below the value, in place, and leaves other objects alone', () => {
    const date = new Date(5);
    const bytes = new Uint8Array([1]);
    const value = { a: [1, { b: ['x', { c: 1 }] }], bare: Object.assign(Object.create(null) as object, { k: [1] }), date, bytes };
    expect(deepFreeze(value)).toBe(value);
    for (const part of [value, value.a, value.a[1], (value.a[1] as { b: unknown[] }).b, (value.a[1] as { b: object[] }).b[1], (value.bare as { k: unknown }).k])
      expect(Object.isFrozen(part)).toBe(true);
    expect(Object.isFrozen(date)).toBe(false);
    expect(Object.isFrozen(bytes)).toBe(false);
  });

  it('freezes a __proto__ key held as data, and never what a polluted Object.prototype carries', () => {
    const hostile = JSON.parse('{"__proto__": {"inner": {"x": 1}}, "y": {}}') as Record<string, { inner?: object }>;
    const inherited = { planted: true };
    Object.defineProperty(Object.prototype, 'plantedByAttacker', { value: inherited, enumerable: true, writable: true, configurable: true });
    try {
      deepFreeze(hostile);
      expect(Object.isFrozen(hostile['__proto__'])).toBe(true);
      expect(Object.isFrozen(hostile['__proto__']!.inner)).toBe(true);
      expect(Object.isFrozen(hostile.y)).toBe(true);
      // Inherited keys are no part of the value: the planted object stays writable.
      expect(Object.isFrozen(inherited)).toBe(false);
    } finally {
      delete (Object.prototype as Record<string, unknown>).plantedByAttacker;
    }
  });

  it('freezes a value nested 100,000 deep without a stack overflow, and stops at cycles and frozen parts', () => {
    let deep: unknown = { leaf: {} };
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { next: deep };
    expect(() => deepFreeze(deep)).not.toThrow();
    let cursor = deep as Record<string, unknown> | unknown[];
    for (let i = 0; i < 100_000; i++) {
      expect(Object.isFrozen(cursor)).toBe(true);
      cursor = (Array.isArray(cursor) ? cursor[0] : cursor.next) as typeof cursor;
    }
    const cycle: Record<string, unknown> = { a: [] };
    cycle.self = cycle;
    (cycle.a as unknown[]).push(cycle);
    expect(deepFreeze(cycle)).toBe(cycle);
    expect(Object.isFrozen(cycle.a)).toBe(true);
    // An already frozen object is taken as frozen through (what stores hand out): its children are not walked.
    const below = { open: true };
    deepFreeze(Object.freeze({ below }));
    expect(Object.isFrozen(below)).toBe(false);
  });
});
