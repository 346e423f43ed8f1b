import { describe, expect, it } from 'vitest';
import { cloneData, frozenCopy, frozenEventCopy } from '../src/content/cloneData.js';
import { createEvent } from '../src/content/event.js';
import { eventForStorage, withoutTempState } from '../src/sessions/sessionState.js';

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

  it('copies arrays as plain arrays of their length: a subclass, holes, index getters and extra keys, frozen or not (#24)', () => {
    class Parts extends Array<unknown> {}
    const subclass = Parts.from([1, { t: 'x' }]);
    const holey: unknown[] = [1, , { h: true }]; // eslint-disable-line no-sparse-arrays
    let reads = 0;
    const withGetter = [0, 0];
    Object.defineProperty(withGetter, 1, { get: () => ++reads, enumerable: true });
    const extra = Object.assign([1, 2], { note: 'not an index' });
    for (const copy of [cloneData, frozenCopy]) {
      reads = 0;
      const copied = copy({ subclass, holey, withGetter, extra });
      expect(Object.getPrototypeOf(copied.subclass)).toBe(Array.prototype);
      expect([...copied.subclass]).toEqual([1, { t: 'x' }]);
      expect(copied.subclass[1]).not.toBe(subclass[1]);
      expect(copied.holey).toHaveLength(3);
      expect(Object.hasOwn(copied.holey, 1)).toBe(true);
      expect(copied.holey[1]).toBeUndefined();
      expect(copied.holey[2]).toEqual({ h: true });
      expect(copied.holey[2]).not.toBe(holey[2]);
      expect(reads).toBe(1);
      expect(Object.getOwnPropertyDescriptor(copied.withGetter, 1)).toMatchObject({ value: 1, writable: copy === cloneData });
      expect(Object.keys(copied.extra)).toEqual(['0', '1']);
      if (copy === frozenCopy) for (const array of Object.values(copied)) expect(Object.isFrozen(array)).toBe(true);
      expect(() => copy([1, () => 2])).toThrow();
      expect(() => copy([Symbol('s')])).toThrow();
    }
  });

  it('refuses what cannot be copied, like structuredClone', () => {
    expect(() => cloneData({ f: () => 1 })).toThrow();
    expect(() => cloneData({ s: Symbol('x') })).toThrow();
  });
});

// #24: a stored event is copied and frozen in one walk; it must be what deepFreeze(cloneData(x)) was.
describe('frozenCopy', () => {
  it('a deep copy whose arrays and plain objects are all frozen, the original untouched', () => {
    const input = { a: [1, { b: ['x', { c: 1 }] }], d: new Date(5), bare: Object.assign(Object.create(null) as object, { k: [1] }) };
    const copy = frozenCopy(input);
    expect(copy).toEqual(input);
    for (const value of [copy, copy.a, copy.a[1], (copy.a[1] as { b: unknown[] }).b, (copy.a[1] as { b: object[] }).b[1], (copy.bare as { k: unknown }).k])
      expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(input) || Object.isFrozen(input.a) || Object.isFrozen(input.a[1])).toBe(false);
    // A Date goes through structuredClone: a copy, left unfrozen as deepFreeze leaves it.
    expect(copy.d).not.toBe(input.d);
    expect(Object.isFrozen(copy.d)).toBe(false);
  });

  it('keeps __proto__ keys as data, copies a value nested 100,000 deep without a stack overflow', () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const copy = frozenCopy(hostile);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    let walked = frozenCopy(deep);
    let unfrozen = 0;
    for (let i = 0; i < 100_000; i++) {
      if (!Object.isFrozen(walked)) unfrozen++;
      walked = (walked as unknown[])[0];
    }
    expect(unfrozen).toBe(0);
    expect(walked).toBe('leaf');
  });
});

describe('frozenCopy: empty objects and arrays (#24)', () => {
  it('gives every empty plain object and array the same frozen one; a change to the source after the copy reaches no copy', () => {
    const first = { stateDelta: {}, artifactDelta: {}, list: [], bare: Object.create(null) as object };
    const second = { stateDelta: {}, list: [] };
    const [a, b] = [frozenCopy(first), frozenCopy(second)];
    expect(a.stateDelta).toBe(b.stateDelta);
    expect(a.artifactDelta).toBe(a.stateDelta);
    expect(a.bare).toBe(a.stateDelta);
    expect(a.list).toBe(b.list);
    for (const empty of [a.stateDelta, a.list]) expect(Object.isFrozen(empty)).toBe(true);
    expect(Object.getPrototypeOf(a.stateDelta)).toBe(Object.prototype);
    expect(Array.isArray(a.list)).toBe(true);
    // The sources stay the caller's own: filling them later changes no stored copy.
    (first.stateDelta as Record<string, unknown>).k = 1;
    first.list.push(1 as never);
    expect(b.stateDelta).toEqual({});
    expect(b.list).toEqual([]);
    expect(() => ((a.stateDelta as Record<string, unknown>).k = 1)).toThrow(TypeError);
    // Not empty: an own copy, as before (also an object whose only key is __proto__).
    const hostile = frozenCopy(JSON.parse('{"d": {"__proto__": 1}}') as { d: object });
    expect(hostile.d).not.toBe(a.stateDelta);
    expect(Object.hasOwn(hostile.d, '__proto__')).toBe(true);
    // cloneData (not frozen) never shares: each empty is the caller's own to fill.
    const copies = [cloneData(first.artifactDelta), cloneData(first.artifactDelta)];
    expect(copies[0]).not.toBe(copies[1]);
    expect(Object.isFrozen(copies[0])).toBe(false);
  });

  it("a stored event with empty deltas, frozen, equals the caller's event after a JSON round trip", () => {
    const event = createEvent({ invocationId: 'i', author: 'a', content: { role: 'model', parts: [{ text: 'hi' }] } });
    const stored = eventForStorage(event);
    expect(JSON.parse(JSON.stringify(stored))).toEqual(JSON.parse(JSON.stringify(event)));
    expect(stored.actions.stateDelta).toEqual({});
    expect(Object.isFrozen(stored.actions)).toBe(true);
  });
});

// #24: what an in-memory store keeps of an event is laid out to be kept (a constructor-made top
// object, one shared object for actions that carry nothing), and must be frozenCopy's value exactly.
describe('frozenEventCopy', () => {
  /** Whether every array and plain object in `value` is frozen. */
  const deeplyFrozen = (value: unknown): boolean =>
    typeof value !== 'object' || value === null || (Object.isFrozen(value) && Object.values(value).every(deeplyFrozen));

  it("is frozenCopy's value: equal, the same key order at every level, a plain frozen object that shares nothing with the caller", () => {
    const event = createEvent({
      invocationId: 'i',
      author: 'a',
      branch: 'b',
      content: { role: 'model', parts: [{ functionCall: { id: 'c', name: 'add', args: { a: [1, { deep: true }] } } }] },
      usageMetadata: { totalTokenCount: 3 },
    });
    const stored = frozenEventCopy(event);
    expect(stored).toEqual(frozenCopy(event));
    expect(JSON.stringify(stored)).toBe(JSON.stringify(event));
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(stored.constructor).toBe(Object);
    expect(structuredClone(stored)).toEqual(event);
    expect(deeplyFrozen(stored)).toBe(true);
    expect(stored.content).not.toBe(event.content);
    (event.content!.parts![0]!.functionCall!.args!.a as unknown[]).push(2);
    expect(stored.content!.parts![0]!.functionCall!.args).toEqual({ a: [1, { deep: true }] });
  });

  it('gives every event whose actions carry nothing one frozen actions object; any other actions are copied as they are', () => {
    const bare = () => frozenEventCopy(createEvent({ invocationId: 'i', author: 'a' })).actions;
    expect(bare()).toBe(bare());
    expect(Object.isFrozen(bare()) && Object.isFrozen(bare().stateDelta)).toBe(true);
    expect(JSON.stringify(bare())).toBe('{"stateDelta":{},"artifactDelta":{}}');
    const others: Record<string, unknown>[] = [
      { stateDelta: { k: 1 }, artifactDelta: {} },
      { stateDelta: {}, artifactDelta: { f: 1 } },
      { stateDelta: {}, artifactDelta: {}, skipSummarization: true },
      { stateDelta: {}, artifactDelta: {}, escalate: undefined },
      { artifactDelta: {}, stateDelta: {} },
      { stateDelta: {} },
      {},
      JSON.parse('{"stateDelta": {}, "artifactDelta": {}, "__proto__": {}}') as Record<string, unknown>,
    ];
    // Actions that are no object at all (a hand-built or hostile event) are copied as they are.
    for (const actions of [null, 5, 'text', [], [{}]])
      expect(frozenEventCopy({ id: 'e', actions }).actions).toEqual(frozenCopy({ id: 'e', actions }).actions);
    for (const actions of others) {
      const event = { id: 'e', invocationId: 'i', author: 'a', timestamp: 1, actions };
      const stored = frozenEventCopy(event).actions as unknown;
      expect(stored, JSON.stringify(actions)).not.toBe(bare());
      expect(stored).toEqual(frozenCopy(event).actions);
      expect(Object.keys(stored as object)).toEqual(Object.keys(actions));
      expect(Object.isFrozen(stored)).toBe(true);
    }
  });

  it('reads each getter once, keeps __proto__ as data at the top, and copies what is no plain object as frozenCopy does', () => {
    let reads = 0;
    const event = {
      id: 'e',
      get content() {
        reads++;
        return { role: 'user', parts: [{ text: 'hi' }] };
      },
      actions: { stateDelta: {}, artifactDelta: {} },
    };
    expect(frozenEventCopy(event).content).toEqual({ role: 'user', parts: [{ text: 'hi' }] });
    expect(reads).toBe(1);
    const hostile = JSON.parse('{"__proto__": {"admin": true}, "id": "e", "actions": {"stateDelta": {}, "artifactDelta": {}}}') as Record<string, unknown>;
    const stored = frozenEventCopy(hostile);
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(Object.hasOwn(stored, '__proto__')).toBe(true);
    expect((stored as { admin?: boolean }).admin).toBeUndefined();
    for (const value of [[{ a: 1 }], new Date(5), new Map([[1, 2]]), 'text', 3, null])
      expect(frozenEventCopy(value)).toEqual(frozenCopy(value));
    expect(() => frozenEventCopy({ id: 'e', handler: () => 1 })).toThrow(/could not be cloned/);
  });
});

describe('eventForStorage (TC-13)', () => {
  it('drops temp: keys and freezes the copy; the caller keeps its event and its temp values', () => {
    const handle = () => 'not storable';
    const event = createEvent({ invocationId: 'i', author: 'a', actions: { stateDelta: { 'temp:h': handle, kept: { n: [1] } } } });
    const stored = eventForStorage(event);
    expect(stored.actions.stateDelta).toEqual({ kept: { n: [1] } });
    expect(Object.isFrozen(stored.actions.stateDelta.kept)).toBe(true);
    expect(event.actions.stateDelta['temp:h']).toBe(handle);
    expect(Object.isFrozen(event.actions)).toBe(false);
  });

  it('an event without temp keys is copied once and frozen, never shared with the caller', () => {
    const event = createEvent({ invocationId: 'i', author: 'a', actions: { stateDelta: { n: { deep: [1] } } } });
    expect(withoutTempState(event)).toBe(event);
    const stored = eventForStorage(event);
    expect(stored).toEqual(event);
    expect(stored).not.toBe(event);
    expect(stored.actions.stateDelta.n).not.toBe(event.actions.stateDelta.n);
    expect(Object.isFrozen(stored.actions.stateDelta.n)).toBe(true);
    expect(Object.isFrozen(event.actions.stateDelta.n)).toBe(false);
  });
});

// #24: copies recurse for the first levels and walk with their own stack below; the two must agree.
describe('cloneData/frozenCopy across the recursion limit', () => {
  /** `{ level, items: [ { __proto__ data, when: Date, empty: {} , next } ] }`, `levels` deep. */
  function nested(levels: number): Record<string, unknown> {
    let value: Record<string, unknown> = { leaf: true };
    for (let level = levels; level > 0; level--) {
      const item = JSON.parse('{"__proto__": {"polluted": 1}}') as Record<string, unknown>;
      Object.assign(item, { when: new Date(level), empty: {}, none: [], next: value });
      value = { level, items: [item] };
    }
    return value;
  }
  const down = (value: Record<string, unknown>) => (value.items as Array<Record<string, unknown>>)[0]!.next as Record<string, unknown>;

  it('copies every level alike, at any depth: equal, independent, __proto__ kept as data, a Date cloned', () => {
    for (const levels of [1, 20, 24, 25, 30, 60, 200]) {
      const source = nested(levels);
      for (const copy of [cloneData(source), frozenCopy(source)]) {
        expect(copy).toEqual(source);
        let [a, b] = [copy, source];
        for (let level = 0; level < levels; level++) {
          const [itemA, itemB] = [(a.items as object[])[0] as Record<string, unknown>, (b.items as object[])[0] as Record<string, unknown>];
          expect(itemA).not.toBe(itemB);
          expect(Object.hasOwn(itemA, '__proto__')).toBe(true);
          expect(Object.getPrototypeOf(itemA)).toBe(Object.prototype);
          expect(itemA.when).not.toBe(itemB.when);
          expect((itemA.when as Date).getTime()).toBe((itemB.when as Date).getTime());
          [a, b] = [down(a), down(b)];
        }
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('frozenCopy freezes every array and plain object at every depth and shares the empty ones', () => {
    const copy = frozenCopy(nested(120));
    let cursor = copy;
    const empties = new Set<unknown>();
    for (let level = 0; level < 120; level++) {
      const item = (cursor.items as Array<Record<string, unknown>>)[0]!;
      for (const part of [cursor, cursor.items, item]) expect(Object.isFrozen(part)).toBe(true);
      expect(Object.isFrozen(item.when)).toBe(false);
      empties.add(item.empty);
      empties.add(item.none);
      cursor = down(cursor);
    }
    // One shared frozen {} and one shared frozen [] below and above the limit alike.
    expect(empties.size).toBe(2);
    const plain = cloneData(nested(120));
    expect(Object.isFrozen(plain)).toBe(false);
    expect(down(plain).items).not.toBe(down(nested(120)).items);
  });

  describe('under a polluted Object.prototype', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    const clean = () => delete prototype.polluted;

    it('copies own keys only, at every depth, in both the recursion and the walk, frozen or not', () => {
      try {
        prototype.polluted = 'inherited';
        for (const copy of [cloneData, frozenCopy, frozenEventCopy]) {
          const value = { a: { b: [{ c: 1 }] }, empty: {} };
          const copied = copy(value);
          expect(Object.hasOwn(copied, 'polluted')).toBe(false);
          expect(Object.hasOwn(copied.a, 'polluted')).toBe(false);
          expect(Object.hasOwn(copied.a.b[0]!, 'polluted')).toBe(false);
          expect(Object.hasOwn(copied.empty, 'polluted')).toBe(false);
          const deep = copy(nested(120));
          let level = deep;
          for (let i = 0; i < 120; i++) {
            const item = (level.items as Record<string, unknown>[])[0]!;
            expect(Object.hasOwn(level, 'polluted') || Object.hasOwn(item, 'polluted') || Object.hasOwn(item.empty as object, 'polluted'), `level ${i}`).toBe(false);
            level = down(level);
          }
          expect(level).toEqual({ leaf: true });
          // Frozen copies still share the one empty object, deep in the walk too.
          if (copy !== cloneData) {
            const shared = frozenCopy({ e: {} }).e;
            let deepest = deep;
            for (let i = 0; i < 119; i++) deepest = down(deepest);
            expect((deepest.items as Record<string, unknown>[])[0]!.empty).toBe(shared);
          }
        }
      } finally {
        clean();
      }
      // Clean again: nothing is skipped any more.
      expect(cloneData({ own: 1 })).toEqual({ own: 1 });
    });

    it('copies own keys only when a getter starts a copy of its own on a clean prototype, then pollutes it again', () => {
      try {
        prototype.polluted = 'inherited';
        const value = {
          get first() {
            clean();
            cloneData({ inner: 1 });
            prototype.polluted = 'inherited';
            return 1;
          },
          later: { x: 1 },
        };
        for (const copy of [cloneData, frozenCopy, frozenEventCopy]) {
          const copied = copy(value);
          expect(Object.keys(copied.later)).toEqual(['x']);
        }
      } finally {
        clean();
      }
    });

    it('copies own keys only when a getter pollutes the prototype while the copy runs', () => {
      try {
        const value = {
          get first() {
            prototype.polluted = 'inherited';
            return 1;
          },
          later: { x: 1 },
        };
        const copied = cloneData(value);
        expect(Object.hasOwn(copied.later, 'polluted')).toBe(false);
        expect(Object.keys(copied.later)).toEqual(['x']);
      } finally {
        clean();
      }
    });
  });
});

