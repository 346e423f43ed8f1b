// Ids are made flat (#24): Node joins a UUID's hex pairs one by one, and V8 keeps such a string as
// a tree of ~20 joined pieces (~500 bytes) until its characters are read. Ids live as long as their
// events, so each stored event kept that tree and the garbage collector copied it around.
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
  it('newId is a v4 UUID; newFunctionCallId is adk-<uuid> (FL-7)', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newId()).toMatch(uuid);
    const callId = newFunctionCallId();
    expect(callId.startsWith(CLIENT_FUNCTION_CALL_ID_PREFIX)).toBe(true);
    expect(callId.slice(CLIENT_FUNCTION_CALL_ID_PREFIX.length)).toMatch(uuid);
  });

  it('an id keeps one flat string: well under 200 bytes each (a joined-up UUID keeps ~500)', () => {
    // The measure itself: an unflattened UUID from the same source keeps far more.
    const joined = retainedEach(() => crypto.randomUUID());
    expect(joined).toBeGreaterThan(300);
    expect(retainedEach(newId)).toBeLessThan(200);
    expect(retainedEach(newFunctionCallId)).toBeLessThan(200);
  });
});
