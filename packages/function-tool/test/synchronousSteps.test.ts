// #24: a call's synchronous steps (TypeBox's check, no confirmation, a plain handler) are not
// awaited, yet `run` keeps what `await` gave: a promise always (never a synchronous throw), a
// thenable result waited for, a handler's throw or bad arguments as a rejection (FT-4, FT-5).
import { createToolContext } from '@adkit/flow/testing';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { functionTool } from '../src/index.js';

const ctx = createToolContext();
const parameters = Type.Object({ n: Type.Integer() });

describe('function tool: synchronous steps without awaits (#24)', () => {
  it('a handler returning a thenable that is not a Promise is waited for (FT-5 then applies)', async () => {
    const tool = functionTool({
      name: 'later',
      description: 'Later.',
      parameters,
      execute: ({ n }) => ({ then: (resolve: (value: unknown) => void) => setTimeout(() => resolve(n * 2), 1) }) as never,
    });
    await expect(tool.run(ctx, { n: 21 })).resolves.toEqual({ result: 42 });
  });

  it('a handler returning a Promise subclass is waited for (FT-5 then applies)', async () => {
    class Deferred<T> extends Promise<T> {}
    const tool = functionTool({ name: 'sub', description: 'Sub.', parameters, execute: ({ n }) => Deferred.resolve(n + 1) as never });
    const answer = tool.run(ctx, { n: 41 });
    await expect(answer).resolves.toEqual({ result: 42 });
  });

  it('a synchronous handler: its result converted, its throw a rejection, not a throw from run()', async () => {
    const tool = functionTool({
      name: 'sync',
      description: 'Sync.',
      parameters,
      execute: ({ n }) => {
        if (n < 0) throw new Error('negative');
        return n;
      },
    });
    await expect(tool.run(ctx, { n: 3 })).resolves.toEqual({ result: 3 });
    const failed = tool.run(ctx, { n: -1 });
    expect(failed).toBeInstanceOf(Promise);
    await expect(failed).rejects.toThrow('negative');
  });

  it('bad arguments reject with INVALID_ARGUMENTS, and the handler never runs', async () => {
    let ran = 0;
    const tool = functionTool({ name: 'strict', description: 'Strict.', parameters, execute: () => ++ran });
    await tool.run(ctx, { n: 1 });
    const refused = tool.run(ctx, { n: 'many' });
    expect(refused).toBeInstanceOf(Promise);
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect(ran).toBe(1);
  });

  it('a synchronous result that fails the response schema rejects with INVALID_RESULT, also on the first call (schemas not compiled yet)', async () => {
    const tool = functionTool({ name: 'typed', description: 'Typed.', parameters, response: Type.Object({ ok: Type.Boolean() }), execute: () => ({ ok: 'yes' }) as never });
    for (let call = 0; call < 2; call++) {
      const refused = tool.run(ctx, { n: 1 });
      expect(refused).toBeInstanceOf(Promise);
      await expect(refused).rejects.toMatchObject({ code: 'INVALID_RESULT' });
    }
  });

  // The direct path (#24): a compiled tool without confirmation, auth or defaults hands arguments
  // that pass the strict check straight to the handler. Tried on it: a getter that throws, own
  // `__proto__` and `constructor` keys from JSON.parse, and a confirmation sent to the tool.
  it('the direct path: a throwing getter is a rejection; prototype keys never reach the handler; a confirmation is still refused (HC-2)', async () => {
    const received: unknown[] = [];
    const tool = functionTool({ name: 'direct', description: 'Direct.', parameters, execute: (args) => (received.push(args), { ok: true }) });
    await tool.run(ctx, { n: 1 });
    const hostile = Object.defineProperty({}, 'n', {
      enumerable: true,
      get() {
        throw new Error('getter ran');
      },
    });
    const thrown = tool.run(ctx, hostile);
    expect(thrown).toBeInstanceOf(Promise);
    await expect(thrown).rejects.toThrow('getter ran');
    for (const text of ['{"n": 2, "__proto__": {"polluted": true}}', '{"n": 3, "constructor": {"prototype": {"polluted": true}}}']) {
      await expect(tool.run(ctx, JSON.parse(text))).resolves.toEqual({ ok: true });
      const args = received.at(-1) as Record<string, unknown>;
      expect(Object.keys(args)).toEqual(['n']);
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const confirmed = createToolContext({ toolConfirmation: { confirmed: false } });
    await expect(tool.run(confirmed, { n: 4 })).rejects.toMatchObject({ code: 'CALL_REJECTED' });
    expect(received).toHaveLength(3);
  });
});
