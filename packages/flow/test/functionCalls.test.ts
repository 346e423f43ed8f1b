// Pins spec section 4 (FL-9 … FL-15): executing a step's function calls — concurrently, in
// order, guarded — and what the model sees for every kind of failure. Bad input tried: calls to
// unknown and non-callable tools, tools that throw Errors, strings and objects, reject, hang past
// their timeout (and ignore their signal), and return BigInt, cycles, functions, scalars, arrays.
import { describe, expect, it } from 'vitest';
import {
  LlmAgent,
  getFunctionCalls,
  getFunctionResponses,
  isFinalResponse,
  type Event,
  type FunctionResponse,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool, runOnce } from './support.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function responsesOf(events: Event[]): FunctionResponse[] {
  return events.filter((e) => !e.partial).flatMap((e) => getFunctionResponses(e));
}

describe('executing function calls', () => {
  it('FL-14: answers parallel calls in call order when the first finishes last', async () => {
    const finished: string[] = [];
    const slow = rawTool('slow', async () => (await sleep(60), finished.push('slow'), { who: 'slow' }));
    const fast = rawTool('fast', async () => (finished.push('fast'), { who: 'fast' }));
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'slow' }, { name: 'fast' }, { name: 'slow' }]),
      textResponse('done'),
    ]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools: [slow, fast] }), 'go');
    expect(finished.slice(0, 2)).toEqual(['fast', 'slow']);
    const calls = getFunctionCalls(events[0]!);
    const merged = events[1]!;
    expect(getFunctionResponses(merged).map((r) => [r.id, r.response])).toEqual([
      [calls[0]!.id, { who: 'slow' }],
      [calls[1]!.id, { who: 'fast' }],
      [calls[2]!.id, { who: 'slow' }],
    ]);
    expect(merged.content?.role).toBe('user');
  });

  it('FL-9: runs three 200 ms tools in one turn concurrently (well under 600 ms)', async () => {
    const wait = rawTool('wait', async () => (await sleep(200), { ok: true }));
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'wait' }, { name: 'wait' }, { name: 'wait' }]),
      textResponse('done'),
    ]);
    const started = performance.now();
    await runOnce(new LlmAgent({ name: 'a', model, tools: [wait] }), 'go');
    expect(performance.now() - started).toBeLessThan(400);
  });

  it('FL-9: maxToolConcurrency: 1 runs the same three calls one at a time', async () => {
    let running = 0;
    let most = 0;
    const wait = rawTool('wait', async () => {
      most = Math.max(most, ++running);
      await sleep(200);
      running--;
      return { ok: true };
    });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'wait' }, { name: 'wait' }, { name: 'wait' }]),
      textResponse('done'),
    ]);
    const started = performance.now();
    await runOnce(new LlmAgent({ name: 'a', model, tools: [wait], maxToolConcurrency: 1 }), 'go');
    expect(performance.now() - started).toBeGreaterThanOrEqual(590);
    expect(most).toBe(1);
  });

  // #24: the queue is skipped when maxToolConcurrency holds nothing back; the bound still holds when it does.
  it('FL-9: maxToolConcurrency at or above the number of calls runs them all at once; below it, never more than the bound', async () => {
    const overlap = async (maxToolConcurrency: number) => {
      let running = 0;
      let most = 0;
      const gate: { open?: () => void } = {};
      const opened = new Promise<void>((resolve) => (gate.open = resolve));
      const wait = rawTool('wait', async () => {
        most = Math.max(most, ++running);
        // Each call waits until three are running at once, or a short while when fewer may.
        if (running === 3) gate.open!();
        await Promise.race([opened, sleep(50)]);
        running--;
        return { ok: true };
      });
      const model = new ScriptedModel([
        functionCallResponse([{ name: 'wait' }, { name: 'wait' }, { name: 'wait' }]),
        textResponse('done'),
      ]);
      const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools: [wait], maxToolConcurrency }), 'go');
      expect(getFunctionResponses(events[1]!).map((r) => r.response)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
      return most;
    };
    expect(await overlap(3)).toBe(3);
    expect(await overlap(8)).toBe(3);
    expect(await overlap(2)).toBe(2);
  });

  it('FL-11: an unknown tool gets an error naming the available tools, and the run goes on to a final answer', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'serch' }]), textResponse('sorry')]);
    const tools = [rawTool('search', () => ({})), rawTool('fetch_page', () => ({}))];
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools }), 'go');
    const error = getFunctionResponses(events[1]!)[0]!.response!.error as string;
    expect(error.startsWith("tool 'serch' not found.\nAvailable tools: search, fetch_page\n\nPossible causes:")).toBe(true);
    expect(events.at(-1)!.content?.parts?.[0]?.text).toBe('sorry');
    expect(isFinalResponse(events.at(-1)!)).toBe(true);
    // The model saw the error on its next request.
    const lastRequest = model.requests[1]!;
    expect(lastRequest.contents.at(-1)!.parts![0]!.functionResponse!.response).toEqual({ error });
  });

  it('FL-11: a registered tool that cannot run (no run/runStream) answers like an unknown tool', async () => {
    const shaper = {
      name: 'shaper',
      description: 'only shapes requests',
      async processRequest(_ctx: unknown, req: { tools: Record<string, unknown> }) {
        req.tools.shaper = shaper;
      },
    };
    const model = new ScriptedModel([functionCallResponse([{ name: 'shaper' }]), textResponse('ok')]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools: [shaper] }), 'go');
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({
      error: "tool 'shaper' cannot be called: it has neither run() nor runStream(). It only shapes the request; answer without calling it.",
    });
  });

  it('principle 1: a throw, a rejection and a non-Error throw each become {error} for the model, without stacks', async () => {
    const tools = [
      rawTool('throws', () => {
        throw new Error('city not found');
      }),
      rawTool('rejects', async () => Promise.reject(new TypeError('bad input'))),
      rawTool('throws_string', () => {
        throw 'plain string';
      }),
      rawTool('throws_object', () => {
        throw { code: 42 };
      }),
    ];
    const model = new ScriptedModel([
      functionCallResponse(tools.map((t) => ({ name: t.name }))),
      textResponse('handled'),
    ]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools }), 'go');
    expect(getFunctionResponses(events[1]!).map((r) => r.response)).toEqual([
      { error: 'city not found' },
      { error: 'bad input' },
      { error: 'Tool "throws_string" failed: plain string' },
      { error: 'Tool "throws_object" failed: {"code":42}' },
    ]);
    expect(JSON.stringify(events[1])).not.toContain('    at ');
    expect(events.at(-1)!.content?.parts?.[0]?.text).toBe('handled');
  });

  it('principle 1: results JSON cannot carry (BigInt, cycle, function) become clear errors', async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const tools = [
      rawTool('big', () => ({ n: 10n })),
      rawTool('cycle', () => cyclic),
      rawTool('fn', () => ({ nested: { f: () => 1 } })),
    ];
    const model = new ScriptedModel([functionCallResponse(tools.map((t) => ({ name: t.name }))), textResponse('ok')]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools }), 'go');
    const tail = ' Return plain data (objects, arrays, strings, numbers, booleans, null).';
    expect(getFunctionResponses(events[1]!).map((r) => r.response)).toEqual([
      { error: `Tool "big" returned a result that is not JSON-serializable: $.n is a BigInt (10n); convert it to a number or a string.${tail}` },
      { error: `Tool "cycle" returned a result that is not JSON-serializable: $.self refers back to one of its ancestors (a cycle).${tail}` },
      { error: `Tool "fn" returned a result that is not JSON-serializable: $.nested.f is a function.${tail}` },
    ]);
    expect(() => JSON.stringify(events)).not.toThrow();
    expect(isFinalResponse(events.at(-1)!)).toBe(true);
  });

  it('FT-5: a raw tool returning a scalar or an array is wrapped as {result}', async () => {
    const tools = [rawTool('n', () => 7), rawTool('arr', () => [1, 2]), rawTool('s', () => 'text')];
    const model = new ScriptedModel([functionCallResponse(tools.map((t) => ({ name: t.name }))), textResponse('ok')]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools }), 'go');
    expect(getFunctionResponses(events[1]!).map((r) => r.response)).toEqual([
      { result: 7 },
      { result: [1, 2] },
      { result: 'text' },
    ]);
  });

  it('timeouts: the tool signal aborts and the model gets "timed out after N ms"; the agent default applies', async () => {
    let sawAbort = false;
    const hangs = rawTool(
      'hangs',
      (_args, ctx) =>
        new Promise(() => {
          ctx.signal.addEventListener('abort', () => (sawAbort = true));
        }),
      { timeoutMs: 50 },
    );
    const ignores = rawTool('ignores', () => new Promise(() => {}));
    const model = new ScriptedModel([functionCallResponse([{ name: 'hangs' }, { name: 'ignores' }]), textResponse('gave up')]);
    const agent = new LlmAgent({ name: 'a', model, tools: [hangs, ignores], toolTimeoutMs: 80 });
    const { events } = await runOnce(agent, 'go');
    expect(getFunctionResponses(events[1]!).map((r) => r.response)).toEqual([
      { error: 'Tool "hangs" timed out after 50 ms.' },
      { error: 'Tool "ignores" timed out after 80 ms.' },
    ]);
    expect(sawAbort).toBe(true);
    expect(events.at(-1)!.content?.parts?.[0]?.text).toBe('gave up');
  });

  it('FL-15: a plain tool returning nothing still answers, with an empty response', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'noop' }]), textResponse('ok')]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools: [rawTool('noop', () => undefined)] }), 'go');
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({});
  });

  it('FL-15: a deferring tool returning nothing gets no response, and the model is called again', async () => {
    const deferring = { ...rawTool('later', () => undefined), defersResponse: () => true };
    const model = new ScriptedModel([functionCallResponse([{ name: 'later' }]), textResponse('waiting')]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools: [deferring] }), 'go');
    expect(responsesOf(events)).toEqual([]);
    expect(events.map((e) => e.content?.parts?.[0]?.text ?? 'call')).toEqual(['call', 'waiting']);
  });

  it('FL-14: merges state deltas deeply, artifact versions by max, booleans by OR, transfer by last', async () => {
    const a = rawTool('a', async (_args, ctx) => {
      ctx.state.set('profile', { name: 'Ada', prefs: { theme: 'dark' } });
      ctx.state.set('count', 1);
      await ctx.saveArtifact('report.txt', { text: 'v0' });
      await ctx.saveArtifact('report.txt', { text: 'v1' });
      return {};
    });
    const b = rawTool('b', async (_args, ctx) => {
      await sleep(10);
      ctx.state.set('profile', { prefs: { lang: 'en' } });
      ctx.state.set('count', 2);
      await ctx.saveArtifact('report.txt', { text: 'v2' });
      ctx.actions.escalate = true;
      return {};
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'a' }, { name: 'b' }]), textResponse('ok')]);
    const { events, runner, sessionId } = await runOnce(new LlmAgent({ name: 'm', model, tools: [a, b] }), 'go');
    const merged = events[1]!;
    expect(merged.actions.stateDelta).toEqual({ profile: { name: 'Ada', prefs: { theme: 'dark', lang: 'en' } }, count: 2 });
    expect(merged.actions.artifactDelta).toEqual({ 'report.txt': 2 });
    expect(merged.actions.escalate).toBe(true);
    const session = await runner.sessionService.getSession({ appName: 'test', userId: 'u', sessionId });
    expect(session!.state.profile).toEqual({ name: 'Ada', prefs: { theme: 'dark', lang: 'en' } });
  });

  it('FL-10: each call gets its own context: call id, fresh actions, shared live state', async () => {
    const seen: Array<{ id: string; delta: Record<string, unknown> }> = [];
    const tool = rawTool('probe', async (args, ctx) => {
      seen.push({ id: ctx.functionCallId, delta: { ...ctx.actions.stateDelta } });
      ctx.state.set(`k${args.n}`, args.n);
      return { n: args.n };
    });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'probe', args: { n: 1 }, id: 'c1' }, { name: 'probe', args: { n: 2 }, id: 'c2' }]),
      textResponse('ok'),
    ]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools: [tool], maxToolConcurrency: 1 }), 'go');
    expect(seen).toEqual([
      { id: 'c1', delta: {} },
      { id: 'c2', delta: {} },
    ]);
    expect(events[1]!.actions.stateDelta).toEqual({ k1: 1, k2: 2 });
  });

  it('FL-17: skipSummarization ends the turn on the function response', async () => {
    const tool = rawTool('ack', (_args, ctx) => ((ctx.actions.skipSummarization = true), { ok: true }));
    const model = new ScriptedModel([functionCallResponse([{ name: 'ack' }])]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools: [tool] }), 'go');
    expect(events).toHaveLength(2);
    expect(isFinalResponse(events[1]!)).toBe(true);
    expect(model.remaining).toBe(0);
  });

  it('FL-18: a tool that opts in shows its result as text when it skips summarization; others do not', async () => {
    const shows = {
      ...rawTool('shows', (_a, ctx) => ((ctx.actions.skipSummarization = true), { result: 'sub-agent answer' })),
      displayResultOnSkipSummarization: () => true,
    };
    const silent = rawTool('silent', (_a, ctx) => ((ctx.actions.skipSummarization = true), { result: 'hidden' }));
    const model = new ScriptedModel([functionCallResponse([{ name: 'shows' }, { name: 'silent' }])]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools: [shows, silent] }), 'go');
    const parts = events[1]!.content!.parts!;
    expect(parts.map((p) => (p.functionResponse ? 'fr' : p.text))).toEqual(['fr', 'fr', 'sub-agent answer']);
  });
});
