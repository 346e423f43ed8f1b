// #24: what a step skips when it has nothing to do, and that it still does it when it has. Tried:
// a plain message (no resume), a reply in this invocation's message, a reply behind events of an
// earlier invocation, this invocation's own function responses (not a reply); callback chains
// that are empty, only the agent's, only a plugin's, both (plugins first, FL-13), a thunk for the
// arguments called only when a callback runs, a callback that answers null (not a result).
import { describe, expect, it } from 'vitest';
import { createEvent, type Event, type Part } from '../src/index.js';
import { mayResume } from '../src/llmFlow/mayResume.js';
import { firstOfChains } from '../src/runner/callbacks.js';
import { pluginCallbacks } from '../src/runner/plugin.js';

const user = (invocationId: string, parts: Part[]): Event =>
  createEvent({ invocationId, author: 'user', content: { role: 'user', parts } });
const reply = { functionResponse: { id: 'c1', name: 'adk_request_confirmation', response: { confirmed: true } } };

describe('mayResume', () => {
  it('is false for a plain message, true for a message with a reply', () => {
    expect(mayResume([user('i1', [{ text: 'hi' }])], 'i1')).toBe(false);
    expect(mayResume([user('i1', [reply])], 'i1')).toBe(true);
    expect(mayResume([], 'i1')).toBe(false);
  });

  it("skips the invocation's own output: its function responses are no reply", () => {
    const own = createEvent({ invocationId: 'i2', author: 'agent', content: { role: 'user', parts: [{ functionResponse: { id: 'x', name: 't', response: {} } }] } });
    expect(mayResume([user('i1', [reply]), user('i2', [{ text: 'next' }]), own], 'i2')).toBe(false);
    // A run with no message of its own: the reply of the latest message still counts.
    expect(mayResume([user('i1', [reply]), own], 'i2')).toBe(true);
  });

  it("looks past an earlier invocation's events that hold no responses", () => {
    const earlier = createEvent({ invocationId: 'i0', author: 'agent', content: { role: 'model', parts: [{ text: 'asked' }] } });
    expect(mayResume([user('i1', [reply]), earlier], 'i2')).toBe(true);
    expect(mayResume([user('i1', [{ text: 'plain' }]), earlier], 'i2')).toBe(false);
  });
});

describe('firstOfChains (FL-13)', () => {
  it('gives undefined at once, without calling the thunk, when both chains are empty', () => {
    let built = 0;
    expect(firstOfChains([], [], () => (built++, {}))).toBeUndefined();
    expect(built).toBe(0);
    expect(pluginCallbacks([], 'beforeToolCallback')).toHaveLength(0);
  });

  it('runs the first chain, then the second; the first value that is not null or undefined wins', async () => {
    const seen: string[] = [];
    const plugin = (name: string, value: unknown) => (args: { n: number }) => (seen.push(`${name}:${args.n}`), value as string | undefined);
    await expect(firstOfChains([plugin('p1', undefined), plugin('p2', null)], [plugin('a1', 'agent')], { n: 1 })).resolves.toBe('agent');
    await expect(firstOfChains([plugin('p3', 'plugin')], [plugin('a2', 'agent')], () => ({ n: 2 }))).resolves.toBe('plugin');
    await expect(firstOfChains([], [async () => undefined], { n: 3 })).resolves.toBeUndefined();
    expect(seen).toEqual(['p1:1', 'p2:1', 'a1:1', 'p3:2']);
  });

  it('rejects with what a callback threw', async () => {
    await expect(firstOfChains([() => { throw new Error('plugin broke'); }], [], {})).rejects.toThrow('plugin broke');
  });
});
