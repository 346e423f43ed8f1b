// displayValue and displayEvent: what reaches the page is always JSON small enough to render.
// Bad input tried: a 50 MB string, values nested 10,000 deep, cycles, 100,000-item arrays,
// `__proto__` keys, BigInts, functions, symbols, NaN, throwing getters, inline data that is HTML
// or not base64, and forwarded child events nested past the limit.
import { createEvent, type Event } from '@adkit/flow';
import { describe, expect, it } from 'vitest';
import { displayEvent } from '../src/displayEvent.js';
import { displayValue } from '../src/displayValue.js';
import { RED_PIXEL_PNG } from './devAgent.js';

function nest(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { down: value };
  return value;
}

function depthOf(value: unknown): number {
  let depth = 0;
  while (value && typeof value === 'object') {
    value = Array.isArray(value) ? value[0] : (value as { down: unknown }).down;
    depth++;
  }
  return depth;
}

describe('displayValue', () => {
  it('keeps the head of a 50 MB string and says how much was cut', () => {
    const shown = displayValue({ log: 'x'.repeat(50 * 1024 * 1024) }) as { log: string };
    expect(shown.log.length).toBeLessThan(20_100);
    expect(shown.log.endsWith(`… [${50 * 1024 * 1024 - 20_000} more characters]`)).toBe(true);
  });

  it('stops at 40 levels of a value nested 10,000 deep, without overflowing the stack', () => {
    const shown = displayValue(nest(10_000));
    expect(depthOf(shown)).toBe(40);
    expect(JSON.stringify(shown)).toContain('"[nested deeper than 40 levels]"');
  });

  it('cuts huge arrays and objects, and names what JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const throwing = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    const shown = displayValue({
      many: Array.from({ length: 100_000 }, (_, i) => i),
      cyclic,
      big: 12n,
      fn: function named() {},
      symbol: Symbol('s'),
      nan: Number.NaN,
      missing: undefined,
      throwing,
    }) as Record<string, unknown>;
    expect((shown.many as unknown[]).length).toBe(1_001);
    expect((shown.many as unknown[]).at(-1)).toBe('[99000 more items]');
    expect(shown.cyclic).toEqual({ name: 'loop', self: '[cycle]' });
    expect(shown).toMatchObject({ big: '12n', fn: '[function named]', symbol: '[Symbol(s)]', nan: 'NaN', throwing: { boom: '[getter threw]' } });
    expect(Object.hasOwn(shown, 'missing')).toBe(false);
  });

  it('keeps a __proto__ key as data and pollutes nothing', () => {
    const shown = displayValue(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')) as Record<string, unknown>;
    expect(Object.keys(shown)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(shown)).toBe(Object.prototype);
    expect(JSON.stringify(shown)).toBe('{"__proto__":{"polluted":true},"a":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('displayEvent', () => {
  const event = (parts: NonNullable<Event['content']>['parts']): Event => createEvent({ invocationId: 'i', author: 'tool', content: { role: 'user', parts } });

  it('sends a small image of a safe type as a data URL, anything else as type and size only', () => {
    const html = Buffer.from('<script>alert(1)</script>').toString('base64');
    const shown = displayEvent(
      event([
        { inlineData: { mimeType: 'image/png', data: RED_PIXEL_PNG } },
        { inlineData: { mimeType: 'text/html', data: html } },
        { inlineData: { mimeType: 'image/png', data: 'not base64!' } },
        { inlineData: { mimeType: 'image/svg+xml', data: Buffer.from('<svg onload="x()"/>').toString('base64') } },
      ]),
    );
    const parts = (shown.content as { parts: { inlineData: Record<string, unknown> }[] }).parts.map((part) => part.inlineData);
    expect(parts[0]).toEqual({ mimeType: 'image/png', bytes: Buffer.from(RED_PIXEL_PNG, 'base64').length, dataUrl: `data:image/png;base64,${RED_PIXEL_PNG}` });
    expect(parts[1]).toEqual({ mimeType: 'text/html', bytes: 25 });
    expect(parts[2]).toEqual({ mimeType: 'image/png', bytes: 8 });
    expect(parts[3]).toEqual({ mimeType: 'image/svg+xml', bytes: 19 });
  });

  it('keeps forwarded child events three levels deep', () => {
    let inner: Event = createEvent({ invocationId: 'i', author: 'leaf', content: { role: 'model', parts: [{ text: 'deepest' }] } });
    for (let i = 0; i < 6; i++)
      inner = createEvent({ invocationId: 'i', author: `level${i}`, partial: true, toolProgress: { functionCallId: 'c', toolName: 't', event: inner } });
    let shown: Record<string, unknown> | undefined = displayEvent(inner);
    let depth = 0;
    while ((shown?.toolProgress as { event?: Record<string, unknown> } | undefined)?.event) {
      shown = (shown!.toolProgress as { event: Record<string, unknown> }).event;
      depth++;
    }
    expect(depth).toBe(3);
  });

  it('is the same JSON shape as the event for ordinary events', () => {
    const plain = createEvent({ invocationId: 'i', author: 'a', content: { role: 'model', parts: [{ text: 'hi' }, { functionCall: { id: 'c1', name: 'f', args: { x: 1 } } }] } });
    expect(displayEvent(plain)).toEqual(JSON.parse(JSON.stringify(plain)));
  });
});
