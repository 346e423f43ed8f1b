// The serializer behind every content attribute. Bad input tried: a 50 MB string and a 50 MB key,
// 10,000-deep nesting, a cycle, `__proto__` keys, a million-element array, values JSON cannot
// hold (undefined, functions, symbols, NaN, bigint), and text that must be escaped at the cut.
import { describe, expect, it } from 'vitest';
import { TRUNCATION_MARKER, boundedJson, truncateText } from '../src/boundedJson.js';

describe('boundedJson', () => {
  it('writes what JSON.stringify writes when the value fits', () => {
    const values: unknown[] = [
      null,
      true,
      42.5,
      'say "hi"\n',
      [],
      {},
      [1, 'two', { three: [3] }],
      { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1], e: 'ok' },
      { n: Number.NaN, i: Number.POSITIVE_INFINITY },
      JSON.parse('{"__proto__":{"x":1},"constructor":2}'),
    ];
    for (const value of values) expect(boundedJson(value, 1000), String(value)).toBe(JSON.stringify(value));
    expect(boundedJson(12n, 100)).toBe('"12"');
  });

  it('cuts a longer text to exactly maxLength, ending with the marker', () => {
    const text = boundedJson({ list: Array.from({ length: 100 }, (_, i) => `item ${i}`) }, 50);
    expect(text).toHaveLength(50);
    expect(text).toBe(`{"list":["item 0","item 1","item 2","i${TRUNCATION_MARKER}`);
    // Exactly at the limit: not cut.
    const exact = JSON.stringify({ k: 'x'.repeat(20) });
    expect(boundedJson({ k: 'x'.repeat(20) }, exact.length)).toBe(exact);
    expect(boundedJson({ k: 'x'.repeat(21) }, exact.length)).toHaveLength(exact.length);
  });

  it('slices a 50 MB string or key before escaping it', () => {
    const huge = '"'.repeat(50 * 1024 * 1024);
    const text = boundedJson({ [huge]: huge }, 100);
    expect(text).toBe(`{"${'\\"'.repeat(43)}${TRUNCATION_MARKER}`);
    expect(text).toHaveLength(100);
  });

  it('stops at 64 levels, so 10,000-deep nesting and cycles stay bounded', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(boundedJson(deep, 1000)).toBe(`${'['.repeat(64)}"[…]"${']'.repeat(64)}`);
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    const text = boundedJson(cycle, 100_000);
    expect(text.startsWith('{"name":"loop","self":{"name":"loop","self":')).toBe(true);
    expect(text.endsWith('"[…]"' + '}'.repeat(64))).toBe(true);
  });

  it('walks no further than the budget through a million-element array', () => {
    const text = boundedJson(new Array(1_000_000).fill(7), 64);
    expect(text).toBe(`[${'7,'.repeat(25)}7${TRUNCATION_MARKER}`);
  });
});

describe('truncateText', () => {
  it('keeps short text and cuts long text to the limit', () => {
    expect(truncateText('short', 24)).toBe('short');
    expect(truncateText('x'.repeat(30), 24)).toBe(`${'x'.repeat(12)}${TRUNCATION_MARKER}`);
  });
});
