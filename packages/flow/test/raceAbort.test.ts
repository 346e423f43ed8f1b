// raceAbort (@adkit/flow/model-kit): the one way the flow, schema checks and adapters stop waiting
// on work that ignores its signal (a tool, a never-settling validator, an SDK's Retry-After sleep).
import { describe, expect, it } from 'vitest';
import { raceAbort } from '../src/modelKit.js';
import { processWarnings } from '@adkit/test-support';

describe('raceAbort', () => {
  it('settles with the work when the signal never aborts, and removes its listener', async () => {
    const controller = new AbortController();
    let listeners = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => (listeners++, add(...args))) as typeof add;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => (listeners--, remove(...args))) as typeof remove;
    await expect(raceAbort(Promise.resolve(7), signal)).resolves.toBe(7);
    await expect(raceAbort(Promise.reject(new Error('boom')), signal)).rejects.toThrow('boom');
    expect(listeners).toBe(0);
  });

  it('rejects with the reason as soon as the signal aborts, though the work never settles', async () => {
    const controller = new AbortController();
    const waiting = raceAbort(new Promise<never>(() => {}), controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    await expect(raceAbort(new Promise<never>(() => {}), controller.signal, () => new Error('mine'))).rejects.toThrow('mine');
  });

  it('a work that rejects after the abort is not an unhandled rejection', async () => {
    const warnings = await processWarnings(async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      try {
        const controller = new AbortController();
        controller.abort();
        let fail!: (error: Error) => void;
        const work = new Promise<never>((_, reject) => (fail = reject));
        await expect(raceAbort(work, controller.signal)).rejects.toBeDefined();
        fail(new Error('late'));
        await new Promise((resolve) => setTimeout(resolve, 10));
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
      expect(unhandled).toEqual([]);
    });
    expect(warnings).toEqual([]);
  });
});
