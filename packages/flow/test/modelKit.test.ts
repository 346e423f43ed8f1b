// The adapter building blocks of `@adkit/flow/model-kit` (#9 points 12, 13): one listener per caller
// signal however many requests share it, none once they end; a broken stream is told apart from
// an API error. Bad input tried: 1,000 requests on one signal, a caller aborted mid-request, a
// request closed twice, a stream that throws after some items, a sync iterable.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BrokenStreamError, brokenStreamResponse, readStream, requestSignal } from '../src/modelKit.js';

describe('requestSignal', () => {
  it('1,000 requests on one caller signal add one listener while in flight and leave none', () => {
    const caller = new AbortController();
    const open = Array.from({ length: 1000 }, () => requestSignal(caller.signal));
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    for (const request of open) request.close();
    open[0]!.close();
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    expect(open.every((request) => request.signal.aborted)).toBe(true);
  });

  it("the caller's abort reaches every request in flight, with its reason", () => {
    const caller = new AbortController();
    const [a, b] = [requestSignal(caller.signal), requestSignal(caller.signal)];
    caller.abort(new Error('user left'));
    expect([a.signal.reason, b.signal.reason].map((r: Error) => r.message)).toEqual(['user left', 'user left']);
    expect(requestSignal(caller.signal).signal.aborted).toBe(true);
    expect(requestSignal(undefined).signal.aborted).toBe(false);
  });
});

describe('readStream', () => {
  async function* failing() {
    yield 1;
    yield 2;
    throw new Error('socket hang up');
  }

  it('a failure that is not an API error is a BrokenStreamError counting what arrived', async () => {
    const seen: number[] = [];
    const error = await (async () => {
      for await (const item of readStream(failing(), () => false)) seen.push(item);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([1, 2]);
    expect(error).toBeInstanceOf(BrokenStreamError);
    expect(brokenStreamResponse('Acme', 'm', error as BrokenStreamError, 'chunk')).toEqual({
      errorCode: 'INCOMPLETE_STREAM',
      errorMessage: 'The Acme stream for model "m" broke off after 2 chunks (socket hang up); the answer is incomplete, so it was dropped.',
    });
    expect(brokenStreamResponse('Acme', 'm', new BrokenStreamError(0, new Error('reset')), 'chunk')).toEqual({
      errorCode: 'EMPTY_RESPONSE',
      errorMessage: 'Acme returned no answer for model "m": the stream broke off before any chunk (reset).',
    });
  });

  it('an API error passes through unchanged; a sync iterable reads too', async () => {
    const apiError = Object.assign(new Error('429'), { status: 429 });
    async function* limited() {
      yield 'x';
      throw apiError;
    }
    await expect((async () => { for await (const _ of readStream(limited(), (e) => (e as { status?: number }).status === 429)); })()).rejects.toBe(apiError);
    const items: number[] = [];
    for await (const item of readStream([1, 2, 3], () => false)) items.push(item);
    expect(items).toEqual([1, 2, 3]);
  });
});
