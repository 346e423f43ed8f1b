// Small pieces with sharp edges: JSON checking, canonical digests, state views, contexts.
import { describe, expect, it } from 'vitest';
import { DeltaState, InMemoryMemoryService, injectSessionState, readonlyState, toJsonValue } from '../src/index.js';
import { canonicalJson } from '../src/store.js';
import { createToolContext } from '../src/testing/index.js';
import { digestText, functionCallDigest } from '../src/content/canonicalJson.js';

describe('toJsonValue', () => {
  it('copies plain data, honours toJSON, drops undefined fields and turns undefined items into null', () => {
    const date = new Date('2026-01-02T03:04:05.000Z');
    const input = { a: [1, undefined, 'x'], d: date, skip: undefined, nested: { ok: true, n: null } };
    const copy = toJsonValue(input);
    expect(copy).toEqual({ a: [1, null, 'x'], d: '2026-01-02T03:04:05.000Z', nested: { ok: true, n: null } });
    expect(copy).not.toBe(input);
  });

  it('names the path of what JSON cannot carry', () => {
    expect(() => toJsonValue({ a: [{ b: NaN }] })).toThrow('$.a[0].b is NaN, which JSON cannot represent');
    expect(() => toJsonValue({ m: new Map() })).toThrow('$.m is a Map; convert it to an object or an array');
    expect(() => toJsonValue({ s: Symbol('x') })).toThrow('$.s is a symbol');
    const shared = { x: 1 };
    expect(toJsonValue({ a: shared, b: shared })).toEqual({ a: { x: 1 }, b: { x: 1 } });
    // The path names where the refused value is, whatever was copied before it (#24: built on refusal only).
    expect(() => toJsonValue({ a: [1, { b: 2 }], c: { d: [0, 1, () => 1] } })).toThrow('$.c.d[2] is a function');
    expect(() => toJsonValue([{ ok: 1 }, { toJSON: () => ({ n: 10n }) }])).toThrow('$[1].n is a BigInt (10n)');
    const cycle: Record<string, unknown> = { list: [1] };
    (cycle.list as unknown[]).push({ back: cycle });
    expect(() => toJsonValue({ top: cycle })).toThrow('$.top.list[1].back refers back to one of its ancestors (a cycle)');
    // Own keys only, __proto__ kept as data.
    const hostile = Object.setPrototypeOf(JSON.parse('{"__proto__": {"x": 1}, "own": 2}'), { inherited: 1 }) as object;
    const copied = toJsonValue(hostile) as Record<string, unknown>;
    expect(Object.keys(copied)).toEqual(['__proto__', 'own']);
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
  });
});

describe('digests', () => {
  it('canonical JSON ignores key order; the format-1 call digest changes with id, name or arguments', async () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [{ y: 1, x: 2 }] } })).toBe('{"a":{"c":[{"x":2,"y":1}],"d":2},"b":1}');
    const base = await functionCallDigest({ id: '1', name: 'f', args: { a: 1, b: 2 } });
    expect(await functionCallDigest({ id: '1', name: 'f', args: { b: 2, a: 1 } })).toBe(base);
    expect(await functionCallDigest({ id: '2', name: 'f', args: { a: 1, b: 2 } })).not.toBe(base);
    expect(await functionCallDigest({ id: '1', name: 'g', args: { a: 1, b: 2 } })).not.toBe(base);
    expect(await functionCallDigest({ id: '1', name: 'f', args: { a: 1, b: 3 } })).not.toBe(base);
  });

  it('canonical JSON keeps a __proto__ key as data, in order', () => {
    const parsed = JSON.parse('{"b":1,"__proto__":{"polluted":true},"a":2}') as Record<string, unknown>;
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"polluted":true},"a":2,"b":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('digests with Web Crypto: SHA-256 by default, HMAC-SHA-256 with a secret (known answers)', async () => {
    expect(await digestText('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // RFC 4231 test case 2.
    expect(await digestText('what do ya want for nothing?', 'Jefe')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });
});

describe('state views', () => {
  it('TC-10: DeltaState reads the delta first and writes through to both', () => {
    const value: Record<string, unknown> = { a: 1, b: 1 };
    const delta: Record<string, unknown> = { b: 2 };
    const state = new DeltaState(value, delta);
    expect([state.get('a'), state.get('b'), state.has('c')]).toEqual([1, 2, false]);
    state.set('c', 3);
    expect(value).toEqual({ a: 1, b: 1, c: 3 });
    expect(delta).toEqual({ b: 2, c: 3 });
    expect(state.toObject()).toEqual({ a: 1, b: 2, c: 3 });
    expect(readonlyState({ x: 1 }).toObject()).toEqual({ x: 1 });
  });

  it('instruction templating fills state and artifacts', async () => {
    const state = readonlyState({ n: 3, obj: { k: 'v' } });
    const text = await injectSessionState('{n} {obj} {artifact.notes} {artifact.none?}', state, async (name) =>
      name === 'notes' ? { text: 'NOTES' } : undefined,
    );
    expect(text).toBe('3 {"k":"v"} NOTES ');
    await expect(injectSessionState('{artifact.none}', state, async () => undefined)).rejects.toThrow('Context variable not found: `artifact.none`.');
  });
});

describe('tool context', () => {
  it('TC-10: artifacts record their version on the actions; memory needs a service', async () => {
    const ctx = createToolContext({ functionCallId: 'c1' });
    expect(await ctx.saveArtifact('a.txt', { text: 'one' })).toBe(0);
    expect(await ctx.saveArtifact('a.txt', { text: 'two' })).toBe(1);
    expect(ctx.actions.artifactDelta).toEqual({ 'a.txt': 1 });
    expect(await ctx.loadArtifact('a.txt', 0)).toEqual({ text: 'one' });
    expect(await ctx.listArtifacts()).toEqual(['a.txt']);
    await expect(ctx.searchMemory('x')).rejects.toThrow(
      'memory service is not set; pass memoryService to the Runner (InMemoryRunner has one).',
    );
    const memory = new InMemoryMemoryService();
    const withMemory = createToolContext({ memoryService: memory });
    expect(await withMemory.searchMemory('anything')).toEqual({ memories: [] });
  });

  it('HC-1: requestConfirmation records the request under the call id and skips summarization', () => {
    const ctx = createToolContext({ functionCallId: 'call-7' });
    ctx.requestConfirmation({ hint: 'sure?', payload: { n: 1 } });
    expect(ctx.actions.requestedToolConfirmations).toEqual({ 'call-7': { hint: 'sure?', confirmed: false, payload: { n: 1 } } });
    expect(ctx.actions.skipSummarization).toBe(true);
    expect(() => createToolContext({ functionCallId: '' })).toThrow('A tool context needs the function call id of the call it answers.');
  });

  it('TC-11: the tool context exposes no session internals', async () => {
    const { ToolCallContext } = await import('../src/context/flowContext.js');
    const ctx = new ToolCallContext(
      {
        invocationId: 'i',
        agentName: 'a',
        session: { id: 's', appName: 'x', userId: 'u', state: {}, events: [], lastUpdateTime: 0 },
        signal: new AbortController().signal,
        context: { token: 'secret' } as never,
        logger: console,
      },
      { functionCallId: 'c' },
    ) as unknown as Record<string, unknown>;
    expect(Object.keys(ctx).sort()).toEqual([
      'actions',
      'functionCall',
      'functionCallId',
      'resumeState',
      'state',
      'toolConfirmation',
    ]);
    // The signal is a getter (a tool call's is made on first read, #24), not an own key.
    expect(ctx.signal).toBeInstanceOf(AbortSignal);
    for (const refused of ['agent', 'session', 'source', 'runConfig', 'invocationContext', 'memory', 'endInvocation', 'confirmationSecret'])
      expect(ctx[refused]).toBeUndefined();
  });
});
