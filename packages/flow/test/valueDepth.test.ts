// exceedsDepth: what the flow refuses to store (call arguments, tool results, state, messages
// nested deeper than MAX_VALUE_DEPTH). Small values are measured by recursion, others by a walk
// with its own stack (#24); both must give the same answer at every depth and survive what an
// attacker sends: a million levels, a shared part referenced along many paths, cycles, keys such
// as __proto__, a polluted Object.prototype.
import { afterEach, describe, expect, it } from 'vitest';
import { exceedsDepth, MAX_VALUE_DEPTH } from '../src/content/valueDepth.js';

/** An object nested `levels` deep ({a: {a: … {}}}): `levels` levels of objects. */
function nested(levels: number, wrap: (inner: unknown) => unknown = (inner) => ({ a: inner })): unknown {
  let value: unknown = {};
  for (let i = 1; i < levels; i++) value = wrap(value);
  return value;
}

describe('exceedsDepth', () => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  it('is false for primitives and null, and counts the value itself as the first level', () => {
    for (const value of [undefined, null, 0, 'text', true, 10n]) expect(exceedsDepth(value, 0)).toBe(false);
    expect(exceedsDepth({}, 1)).toBe(false);
    expect(exceedsDepth({}, 0)).toBe(true);
    expect(exceedsDepth([[]], 1)).toBe(true);
    expect(exceedsDepth([[]], 2)).toBe(false);
  });

  it('draws the line exactly at max for objects, arrays and both mixed, on both sides of the recursion limit', () => {
    const shapes: [string, (inner: unknown) => unknown][] = [
      ['objects', (inner) => ({ a: inner })],
      ['arrays', (inner) => [1, inner]],
      ['mixed', (inner) => ({ list: [0, { x: inner }] })],
    ];
    for (const [name, wrap] of shapes)
      for (const max of [1, 5, 31, 32, 33, 100, 150]) {
        // A value of exactly `max` levels fits; one level more does not.
        let value: unknown = {};
        let levels = 1;
        while (levels < max) {
          const wrapped = wrap(value);
          const added = name === 'mixed' ? 3 : 1;
          if (levels + added > max) break;
          value = wrapped;
          levels += added;
        }
        const at = levels;
        expect(exceedsDepth(value, at), `${name} ${at} levels, max ${at}`).toBe(false);
        expect(exceedsDepth(value, at - 1), `${name} ${at} levels, max ${at - 1}`).toBe(true);
      }
  });

  it('finds the one deep branch among many shallow ones, wherever it is', () => {
    const deep = nested(MAX_VALUE_DEPTH);
    const wide = (position: number) => Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i === position ? deep : { leaf: i }]));
    for (const position of [0, 150, 299]) {
      expect(exceedsDepth(wide(position)), `branch ${position}`).toBe(true);
      expect(exceedsDepth(wide(position), MAX_VALUE_DEPTH + 1), `branch ${position}`).toBe(false);
    }
  });

  it('measures a value nested a million levels deep without a stack overflow', () => {
    expect(exceedsDepth(nested(1_000_000))).toBe(true);
    expect(exceedsDepth(nested(1_000_000, (inner) => [inner]))).toBe(true);
  });

  it('measures a part shared along many paths quickly (a DAG of 2^40 paths), and stops at cycles', () => {
    let shared: unknown = { leaf: true };
    for (let i = 0; i < 40; i++) shared = { left: shared, right: shared };
    expect(exceedsDepth(shared)).toBe(false);
    expect(exceedsDepth(shared, 40)).toBe(true);
    // Shallow enough for the recursion (31 levels), but 2^30 paths: the visit bound hands it to the walk.
    let wide: unknown = { leaf: true };
    for (let i = 0; i < 30; i++) wide = { left: wide, right: wide };
    expect(exceedsDepth(wide)).toBe(false);
    expect(exceedsDepth(wide, 30)).toBe(true);
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    expect(() => exceedsDepth(cycle)).not.toThrow();
    const list: unknown[] = [];
    list.push(list);
    expect(() => exceedsDepth(list)).not.toThrow();
  });

  it('counts a __proto__ key held as data, and nothing a polluted Object.prototype carries', () => {
    const deepAsProto = JSON.parse(`{"__proto__": ${JSON.stringify(nested(MAX_VALUE_DEPTH))}}`);
    expect(Object.hasOwn(deepAsProto, '__proto__')).toBe(true);
    expect(exceedsDepth(deepAsProto)).toBe(true);
    (Object.prototype as Record<string, unknown>).polluted = nested(MAX_VALUE_DEPTH + 10);
    expect(exceedsDepth({ a: { b: 1 } })).toBe(false);
    expect(exceedsDepth(nested(MAX_VALUE_DEPTH))).toBe(false);
    // Shallow enough for the recursion to decide on its own.
    (Object.prototype as Record<string, unknown>).polluted = { x: { y: {} } };
    expect(exceedsDepth({ a: 1 }, 2)).toBe(false);
    expect(exceedsDepth([{ a: 1 }], 2)).toBe(false);
  });

  it('keeps its bound on work when a getter it reads runs a check of its own', () => {
    let reads = 0;
    const leaf = {
      get probe() {
        reads++;
        // A check inside the check must not reset the outer one's count of visited objects.
        return exceedsDepth({ inner: { deeper: {} } }) ? 1 : 0;
      },
    };
    // 2^20 paths to the leaf: without the bound its getter would be read a million times.
    let wide: unknown = leaf;
    for (let i = 0; i < 20; i++) wide = { left: wide, right: wide };
    expect(exceedsDepth(wide)).toBe(false);
    expect(reads).toBeLessThan(1_000);
    expect(exceedsDepth(wide, 20)).toBe(true);
  });
});
