// Ids are made in one flat piece from Web Crypto's random bytes (#24): Node's randomUUID joins hex
// pairs one by one, and V8 keeps such a string as a tree of ~20 joined pieces (~500 bytes) until its
// characters are read. Ids live as long as their events, so each stored event kept that tree.
import { runInNewContext } from 'node:vm';
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { CLIENT_FUNCTION_CALL_ID_PREFIX, newFunctionCallId, newId } from '../src/content/ids.js';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap bytes each value made by `make` keeps, measured over many of them. */
function retainedEach(make: () => string, count = 20_000): number {
  gc();
  const before = v8.getHeapStatistics().used_heap_size;
  const kept = Array.from({ length: count }, make);
  gc();
  const after = v8.getHeapStatistics().used_heap_size;
  expect(new Set(kept).size).toBe(count); // and all different
  return (after - before) / count;
}

describe('ids', () => {
  it('newId is a v4 UUID; newFunctionCallId is adk-<uuid> (FL-7); 20,000 of them, across many pool refills, all differ', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const ids = Array.from({ length: 10_000 }, (_, i) => (i % 3 === 0 ? newFunctionCallId().slice(CLIENT_FUNCTION_CALL_ID_PREFIX.length) : newId()));
    const calls = Array.from({ length: 10_000 }, newFunctionCallId);
    for (const id of ids) expect(id).toMatch(uuid);
    for (const id of calls) {
      expect(id.startsWith(CLIENT_FUNCTION_CALL_ID_PREFIX)).toBe(true);
      expect(id.slice(CLIENT_FUNCTION_CALL_ID_PREFIX.length)).toMatch(uuid);
    }
    expect(new Set([...ids, ...calls.map((id) => id.slice(CLIENT_FUNCTION_CALL_ID_PREFIX.length))]).size).toBe(20_000);
    // Random where it should be: every free hex position takes all 16 digits, the variant all 4.
    for (let at = 0; at < 36; at++) {
      const seen = new Set(ids.map((id) => id[at]));
      const expected = [8, 13, 18, 23].includes(at) ? 1 : at === 14 ? 1 : at === 19 ? 4 : 16;
      expect(seen.size, `position ${at}`).toBe(expected);
    }
  });

  it('an id keeps one flat string: well under 200 bytes each (a joined-up UUID keeps ~500)', () => {
    // The measure itself: an unflattened UUID from the same source keeps far more.
    const joined = retainedEach(() => crypto.randomUUID());
    expect(joined).toBeGreaterThan(300);
    expect(retainedEach(newId)).toBeLessThan(200);
    expect(retainedEach(newFunctionCallId)).toBeLessThan(200);
  });
});
