// Issue #23 point 15 (FL-9): parallel calls each get their own signal, linked to the run's through
// one listener, so any number of them prints no MaxListenersExceededWarning — also when every tool
// listens on its signal (as fetch and SDKs do) and has a timeout. Cancelling the run still aborts
// every call in flight; nothing is left listening on the run's signal afterwards.
import { getEventListeners } from 'node:events';
import { processWarnings } from '@adkit/test-support';
import { describe, expect, it } from 'vitest';
import { createUserContent, InMemoryRunner, LlmAgent, getFunctionResponses, type Event } from '../src/index.js';
import { callSignal } from '../src/llmFlow/deadline.js';
import { cancellationOfSignal, RunCanceller } from '../src/context/runCancellation.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool } from './support.js';

const fifty = Array.from({ length: 50 }, (_, i) => ({ name: 'lookup', args: { i }, id: `c${i}` }));

describe('one abort listener per run, however many calls (issue #23 point 15)', () => {
  it('FL-9: 50 parallel calls that listen on their signals, with and without a timeout, print no warning; all overlap', async () => {
    for (const toolTimeoutMs of [undefined, 60_000]) {
      let running = 0;
      let most = 0;
      let release!: () => void;
      const allStarted = new Promise<void>((resolve) => (release = resolve));
      const lookup = rawTool('lookup', async (args, ctx) => {
        ctx.signal.addEventListener('abort', () => {}); // what fetch does with the signal it is given
        running++;
        most = Math.max(most, running);
        if (running === fifty.length) release();
        await allStarted;
        running--;
        return { i: args.i };
      });
      const model = new ScriptedModel([functionCallResponse(fifty), textResponse('done')]);
      const agent = new LlmAgent({ name: 'a', model, tools: [lookup], toolTimeoutMs });
      const runner = new InMemoryRunner({ agent, appName: 'app' });
      await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
      const controller = new AbortController();
      const events: Event[] = [];
      const warnings = await processWarnings(async () => {
        for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go'), signal: controller.signal }))
          events.push(event);
      });
      expect(warnings.map((warning) => warning.name)).toEqual([]);
      expect(most).toBe(50);
      expect(events.flatMap(getFunctionResponses).map((response) => response.response)).toEqual(fifty.map(({ args }) => args));
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    }
  });

  it('cancelling the run aborts all 50 calls in flight; the run signal is left with no listener of ours', async () => {
    const aborted: string[] = [];
    let started = 0;
    let allStarted!: () => void;
    const running = new Promise<void>((resolve) => (allStarted = resolve));
    const hang = rawTool('lookup', (args, ctx) => {
      if (++started === fifty.length) allStarted();
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => (aborted.push(String(args.i)), resolve(undefined))));
    });
    const model = new ScriptedModel([functionCallResponse(fifty)]);
    const agent = new LlmAgent({ name: 'a', model, tools: [hang] });
    const runner = new InMemoryRunner({ agent, appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const controller = new AbortController();
    const warnings = await processWarnings(async () => {
      const run = (async () => {
        for await (const _event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go'), signal: controller.signal }));
      })();
      await running;
      controller.abort();
      await run;
    });
    expect(warnings).toEqual([]);
    expect(aborted.sort((a, b) => Number(a) - Number(b))).toEqual(fifty.map(({ args }) => String(args.i)));
  });

  it('callSignal: one listener on the run signal for many calls, none once they are released; an aborted run gives aborted calls', () => {
    const run = new AbortController();
    const linked = cancellationOfSignal(run.signal);
    const calls = Array.from({ length: 30 }, () => callSignal(linked, undefined));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
    for (const call of calls.slice(1)) call.release();
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
    calls[0]!.release();
    calls[0]!.release(); // twice is harmless
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);

    const live = callSignal(linked, 1_000);
    const done = callSignal(linked, undefined);
    done.release();
    run.abort(new Error('stop'));
    expect(live.signal.aborted).toBe(true);
    expect(live.timeout!.aborted).toBe(false);
    expect(done.signal.aborted).toBe(false); // released before the abort: it ended as it was
    const late = callSignal(linked, undefined);
    expect(late.signal.aborted).toBe(true);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });
});

describe('a call signal made only when read (#24)', () => {
  it('makes no AbortController for a call whose tool never reads its signal, and still cancels it with the run', async () => {
    const made: AbortController[] = [];
    const Original = globalThis.AbortController;
    class Counting extends Original {
      constructor() {
        super();
        made.push(this);
      }
    }
    const run = new Original();
    globalThis.AbortController = Counting;
    try {
      const linked = cancellationOfSignal(run.signal);
      const quiet = callSignal(linked, undefined);
      const reader = callSignal(linked, undefined);
      expect(made).toHaveLength(0);
      const readerSignal = reader.signal;
      expect(made).toHaveLength(1);
      expect(reader.signal).toBe(readerSignal); // the same signal on every read
      let settle!: (value: string) => void;
      const waiting = quiet.until(new Promise<string>((resolve) => (settle = resolve)), 'quiet');
      run.abort(new Error('stop'));
      await expect(waiting).rejects.toMatchObject({ name: 'RunAbortedError' });
      settle('too late'); // a result after the cancel changes nothing
      expect(readerSignal.aborted).toBe(true);
      // Read for the first time after the run was cancelled: aborted, with the run's reason.
      expect(quiet.signal.aborted).toBe(true);
      expect(quiet.signal.reason).toEqual(new Error('stop'));
      expect(made).toHaveLength(2);
      await expect(quiet.until('value', 'quiet')).rejects.toMatchObject({ name: 'RunAbortedError' });
    } finally {
      globalThis.AbortController = Original;
    }
  });

  it('until: waits in progress at once are all rejected by the cancel, in any order of settling; a settled one keeps its value', async () => {
    // The first wait is kept apart from the others (#24): every combination must still be cancelled.
    for (const settledFirst of [0, 1, 2]) {
      const run = new AbortController();
      const call = callSignal(cancellationOfSignal(run.signal), undefined);
      const settles: ((value: string) => void)[] = [];
      const waits = [0, 1, 2].map((i) => call.until(new Promise<string>((resolve) => (settles[i] = resolve)), `t${i}`));
      settles[settledFirst]!('done');
      await expect(waits[settledFirst]).resolves.toBe('done');
      // A wait that starts after the settled one took its slot is cancelled too.
      const later = call.until(new Promise<string>(() => {}), 'later');
      run.abort(new Error('stop'));
      for (const [i, wait] of [...waits, later].entries())
        if (i !== settledFirst) await expect(wait, `wait ${i} (settled first: ${settledFirst})`).rejects.toMatchObject({ name: 'RunAbortedError' });
      for (const settle of settles) settle('too late');
      call.release();
    }
  });

  it('until: a plain value or a settled promise passes through; a rejection stays the tool\'s own', async () => {
    const run = new AbortController();
    const call = callSignal(cancellationOfSignal(run.signal), undefined);
    await expect(call.until(7, 't')).resolves.toBe(7);
    await expect(call.until(Promise.resolve('x'), 't')).resolves.toBe('x');
    await expect(call.until(Promise.reject(new Error('tool failed')), 't')).rejects.toThrow('tool failed');
    call.release();
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('with a time limit: the call is given up with TOOL_TIMEOUT when the limit passes', async () => {
    const run = new AbortController();
    const call = callSignal(cancellationOfSignal(run.signal), 20);
    await expect(call.until(new Promise(() => {}), 'slow')).rejects.toMatchObject({ code: 'TOOL_TIMEOUT', toolName: 'slow', timeoutMs: 20 });
    expect(call.signal.aborted).toBe(true);
    expect(call.timeout!.aborted).toBe(true);
    call.release();
  });

  it('a tool that reads ctx.signal gets one that aborts when the run is cancelled, through the runner', async () => {
    let seen: AbortSignal | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const hang = rawTool('hang', (_args, ctx) => {
      seen = ctx.signal;
      started();
      return new Promise(() => {});
    });
    const agent = new LlmAgent({ name: 'a', model: new ScriptedModel([functionCallResponse([{ name: 'hang', args: {} }])]), tools: [hang] });
    const runner = new InMemoryRunner({ agent, appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const controller = new AbortController();
    const run = (async () => {
      for await (const _event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go'), signal: controller.signal }));
    })();
    await running;
    expect(seen!.aborted).toBe(false);
    controller.abort(new Error('user left'));
    await run;
    expect(seen!.aborted).toBe(true);
  });
});

describe("the run's signal, made only when read (#24)", () => {
  /** Runs `work` with every AbortController made meanwhile counted. */
  async function counting<T>(work: () => Promise<T>): Promise<{ made: number; value: T }> {
    let made = 0;
    const Original = globalThis.AbortController;
    globalThis.AbortController = class extends Original {
      constructor() {
        super();
        made++;
      }
    };
    try {
      const value = await work();
      return { made, value };
    } finally {
      globalThis.AbortController = Original;
    }
  }

  /** A model that never reads `options.signal` (a cached or scripted one), asking for one call, then answering. */
  const quietModel = () => {
    let step = 0;
    return {
      model: 'quiet',
      async *generateContent() {
        yield step++ === 0
          ? { content: { role: 'model', parts: [{ functionCall: { name: 'add', args: { a: 1 } } }] } }
          : { content: { role: 'model', parts: [{ text: 'done' }] } };
      },
    };
  };

  it('a turn whose model and tool never read a signal makes no AbortController; its events are as before', async () => {
    const add = rawTool('add', async (args) => ({ sum: Number(args.a) + 1 }));
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model: quietModel(), tools: [add] }), appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const { made, value: events } = await counting(async () => {
      const events: Event[] = [];
      for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go') })) events.push(event);
      return events;
    });
    expect(made).toBe(0);
    expect(events.flatMap(getFunctionResponses).map((response) => response.response)).toEqual([{ sum: 2 }]);
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe('done');
  });

  it('a model that reads options.signal gets the run signal, aborted when the caller cancels mid-call', async () => {
    let seen: AbortSignal | undefined;
    let started!: () => void;
    const calling = new Promise<void>((resolve) => (started = resolve));
    const model = {
      model: 'reader',
      async *generateContent(_request: unknown, options: { signal?: AbortSignal }) {
        seen = options.signal;
        started();
        await new Promise((resolve) => seen!.addEventListener('abort', resolve));
        yield { content: { role: 'model', parts: [{ text: 'late' }] } };
      },
    };
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model }), appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const caller = new AbortController();
    const events: Event[] = [];
    const run = (async () => {
      for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go'), signal: caller.signal }))
        events.push(event);
    })();
    await calling;
    expect(seen).toBeInstanceOf(AbortSignal);
    expect(seen!.aborted).toBe(false);
    caller.abort(new Error('user left'));
    await run;
    expect(seen!.reason).toEqual(new Error('user left'));
    expect(events).toEqual([]); // the late answer is neither yielded
    const stored = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(stored!.events.map((event) => event.author)).toEqual(['user']); // nor saved
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it("a model wrapper that spreads the options passes the run's signal on; the options show nothing but stream and signal", async () => {
    let seen: AbortSignal | undefined;
    let keys: (string | symbol)[] = [];
    let started!: () => void;
    const calling = new Promise<void>((resolve) => (started = resolve));
    const inner = {
      model: 'inner',
      async *generateContent(_request: unknown, options: { signal?: AbortSignal }) {
        seen = options.signal;
        started();
        await new Promise((resolve) => seen!.addEventListener('abort', resolve));
        yield { content: { role: 'model', parts: [{ text: 'late' }] } };
      },
    };
    const wrapper = {
      model: 'wrapper',
      generateContent(request: never, options: Record<string, unknown>) {
        keys = Reflect.ownKeys(options);
        return inner.generateContent(request, { ...options });
      },
    };
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model: wrapper as never }), appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const caller = new AbortController();
    const run = (async () => {
      for await (const _event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go'), signal: caller.signal }));
    })();
    await calling;
    expect(keys).toEqual(['stream', 'signal']);
    expect(seen).toBeInstanceOf(AbortSignal);
    caller.abort(new Error('user left'));
    await run;
    expect(seen!.aborted).toBe(true);
    expect(seen!.reason).toEqual(new Error('user left'));
  });

  it('RunCanceller: a signal first read after the abort is aborted with its reason; listeners run once, none after', () => {
    const run = new RunCanceller();
    const heard: unknown[] = [];
    const listener = (reason: unknown) => heard.push(reason);
    const off = run.onAbort(listener);
    run.onAbort(listener); // the same function twice: two registrations
    const removed = run.onAbort(() => heard.push('removed'));
    removed();
    off();
    off(); // twice is harmless
    expect(run.aborted).toBe(false);
    run.abort(new Error('stop'));
    run.abort(new Error('again')); // the first reason stays
    expect(heard).toEqual([new Error('stop')]);
    expect(run.reason).toEqual(new Error('stop'));
    expect(run.signal.aborted).toBe(true);
    expect(run.signal.reason).toEqual(new Error('stop'));
    run.onAbort(() => heard.push('after'));
    expect(heard).toHaveLength(1);
    // With no reason, as AbortController.abort() does: an AbortError.
    const plain = new RunCanceller();
    const signal = plain.signal;
    plain.abort();
    expect(signal.reason).toMatchObject({ name: 'AbortError' });
  });
});
