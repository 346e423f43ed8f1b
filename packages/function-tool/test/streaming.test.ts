// FT-7 / FL-12: streaming function tools. Bad input tried: invalid arguments, a handler that
// throws mid-stream, one that yields a non-string, one that returns no iterable, one that ignores
// its signal; cancellation of the run and a timeout (the handler's `finally` runs in both).
import { getFunctionResponses, LlmAgent } from '@adkit/flow';
import { createToolContext, functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { streamingFunctionTool } from '../src/index.js';
import { session } from './support.js';

/** A promise with its resolver, to observe when a handler's `finally` ran. */
function signalled() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what} did not happen within ${ms} ms`)))]);
}

const countdown = streamingFunctionTool({
  name: 'countdown',
  description: 'Counts down.',
  parameters: Type.Object({ from: Type.Integer({ minimum: 1 }) }),
  async *execute({ from }) {
    for (let i = from; i > 0; i--) yield `${i} `;
  },
});

describe('FT-7: streaming function tools', () => {
  it('FL-12: chunks become progress events and one {result}; partial events are not saved', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'countdown', args: { from: '3' }, id: 'c' }]), textResponse('Liftoff.')]);
    const { send, saved } = await session(new LlmAgent({ name: 'launcher', model, tools: [countdown] }));
    const events = await send('count');
    expect(events.filter((e) => e.partial).map((e) => e.toolProgress)).toEqual([
      { functionCallId: 'c', toolName: 'countdown', message: '3 ' },
      { functionCallId: 'c', toolName: 'countdown', message: '2 ' },
      { functionCallId: 'c', toolName: 'countdown', message: '1 ' },
    ]);
    expect(events.flatMap(getFunctionResponses)).toEqual([{ id: 'c', name: 'countdown', response: { result: '3 2 1 ' } }]);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('Liftoff.');
    expect((await saved()).events.some((e) => e.partial)).toBe(false);
  });

  it('FT-7: invalid arguments become an error response before the handler starts', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'countdown', args: { from: 0 } }]), textResponse('Oops.')]);
    const { send } = await session(new LlmAgent({ name: 'launcher', model, tools: [countdown] }));
    const events = await send('count');
    expect(events.filter((e) => e.partial)).toEqual([]);
    expect(events.flatMap(getFunctionResponses)[0]!.response).toEqual({
      error:
        'Invalid arguments for tool "countdown": from: must be >= 1. Expected fields: from (integer, required). Correct the arguments and call the tool again.',
    });
  });

  it('FL-12: a handler error wins over the chunks before it; bad chunks and non-iterables are errors', async () => {
    const tool = (name: string, execute: () => AsyncIterable<string>) =>
      streamingFunctionTool({ name, description: 'd', parameters: Type.Object({}), execute });
    const tools = [
      tool('breaks', async function* () {
        yield 'partial ';
        throw new Error('disk full');
      }),
      tool('numbers', async function* () {
        yield 1 as unknown as string;
      }),
      tool('plain', (() => ['a', 'b']) as unknown as () => AsyncIterable<string>),
    ];
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'breaks' }, { name: 'numbers' }, { name: 'plain' }]),
      textResponse('All failed.'),
    ]);
    const { send } = await session(new LlmAgent({ name: 'a', model, tools }));
    const events = await send('go');
    expect(events.flatMap(getFunctionResponses).map((r) => r.response)).toEqual([
      { error: 'disk full' },
      { error: 'streamingFunctionTool "numbers": execute yielded number; yield strings (e.g. JSON.stringify(value)).' },
      {
        error:
          'streamingFunctionTool "plain": execute must return an async iterable of strings (write it as an async function*), got object.',
      },
    ]);
  });

  it('FT-7: cancelling the run stops the stream and the handler\'s finally runs; no event follows', async () => {
    const cleaned = signalled();
    const ticker = streamingFunctionTool({
      name: 'ticker',
      description: 'Ticks until stopped.',
      parameters: Type.Object({}),
      async *execute(_args, ctx) {
        try {
          for (let i = 0; ; i++) {
            yield `tick ${i}`;
            await sleep(10_000, undefined, { signal: ctx.signal });
          }
        } finally {
          cleaned.resolve();
        }
      },
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'ticker' }])]);
    const { runner } = await session(new LlmAgent({ name: 'a', model, tools: [ticker] }));
    const controller = new AbortController();
    const seen: string[] = [];
    const started = Date.now();
    for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'tick' }] }, signal: controller.signal })) {
      seen.push(event.toolProgress?.message ?? 'event');
      if (event.toolProgress) controller.abort();
    }
    await within(cleaned.promise, 1_000, "the handler's finally");
    expect(seen).toEqual(['event', 'tick 0']);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('FT-7: a timeout aborts ctx.signal: the handler cleans up and the model is told', async () => {
    const cleaned = signalled();
    const slow = streamingFunctionTool({
      name: 'slow',
      description: 'Slow.',
      parameters: Type.Object({}),
      timeoutMs: 50,
      async *execute(_args, ctx) {
        try {
          yield 'first';
          await sleep(10_000, undefined, { signal: ctx.signal });
          yield 'never';
        } finally {
          cleaned.resolve();
        }
      },
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'slow' }]), textResponse('It timed out.')]);
    const { send } = await session(new LlmAgent({ name: 'a', model, tools: [slow] }));
    const events = await send('go');
    await within(cleaned.promise, 1_000, "the handler's finally");
    expect(events.flatMap(getFunctionResponses)[0]!.response).toEqual({ error: 'Tool "slow" timed out after 50 ms.' });
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('It timed out.');
  });

  it('FT-7: called directly, the stream ends as soon as ctx.signal aborts, even if the handler ignores it', async () => {
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const cleaned = signalled();
    const deaf = streamingFunctionTool({
      name: 'deaf',
      description: 'Ignores its signal.',
      parameters: Type.Object({}),
      async *execute() {
        try {
          yield 'one';
          await stuck;
          yield 'two';
        } finally {
          cleaned.resolve();
        }
      },
    });
    const controller = new AbortController();
    const stream = deaf.runStream(createToolContext({ signal: controller.signal }), {})[Symbol.asyncIterator]();
    expect(await stream.next()).toEqual({ value: 'one', done: false });
    const pending = stream.next();
    controller.abort();
    expect(await within(pending, 500, 'the end of the stream')).toEqual({ value: undefined, done: true });
    // The handler was asked to stop; its finally runs once its own await settles.
    release();
    await within(cleaned.promise, 500, "the handler's finally");
  });

  it('FT-7: a consumer that stops early closes the handler (finally runs)', async () => {
    const cleaned = signalled();
    const endless = streamingFunctionTool({
      name: 'endless',
      description: 'Endless.',
      parameters: Type.Object({}),
      async *execute() {
        try {
          for (;;) yield 'x';
        } finally {
          cleaned.resolve();
        }
      },
    });
    const chunks: string[] = [];
    for await (const chunk of endless.runStream(createToolContext(), {})) {
      chunks.push(chunk);
      if (chunks.length === 3) break;
    }
    await within(cleaned.promise, 500, "the handler's finally");
    expect(chunks).toEqual(['x', 'x', 'x']);
  });
});
