// executeFunctionCalls on its own (FL-9, FL-14), read as the flow reads it: its progress events
// reach the reader while the calls still run, the merged responses come last and once, and
// nothing comes once the run is cancelled. The flow and the runner guard the cancel again, so
// only a test at this level sees this layer's own guard (#24: it is an iterator written by hand).
import { describe, expect, it } from 'vitest';
import { InMemorySessionService, InvocationContext, LlmAgent, getFunctionResponses, type Event } from '../src/index.js';
import { executeFunctionCalls } from '../src/llmFlow/executeFunctionCalls.js';
import type { ToolCallbacks } from '../src/llmFlow/callTool.js';
import { RunCanceller } from '../src/context/runCancellation.js';
import { rawTool } from './support.js';

const noCallbacks: ToolCallbacks = {
  before: { plugins: [], agent: [] },
  after: { plugins: [], agent: [] },
  onError: { plugins: [], agent: [] },
};

async function invocation() {
  const sessionService = new InMemorySessionService();
  const session = await sessionService.createSession({ appName: 'app', userId: 'u' });
  const run = new RunCanceller();
  const context = new InvocationContext({ invocationId: 'e-1', agent: new LlmAgent({ name: 'a' }), session, sessionService, signal: run });
  return { context, run };
}

/** A gate the test opens: the tool waits on it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('executeFunctionCalls', () => {
  it('yields a progress event while its call still runs, then the merged responses once, in the calls\' order', async () => {
    const { context } = await invocation();
    const release = gate();
    let finished = false;
    const slow = rawTool('slow', async (_args, ctx) => {
      // Reported after the reader started waiting, so only a wake-up brings it.
      await new Promise((resolve) => setTimeout(resolve, 1));
      ctx.reportProgress({ message: 'half way', fraction: 0.5 });
      await release.opened;
      finished = true;
      return { done: true };
    });
    const quick = rawTool('quick', () => ({ quick: true }));
    const events: Event[] = [];
    for await (const event of executeFunctionCalls({
      invocation: context,
      calls: [
        { id: 'c1', name: 'slow', args: {} },
        { id: 'c2', name: 'quick', args: {} },
      ],
      tools: { slow, quick },
      callbacks: noCallbacks,
    })) {
      events.push(event);
      // The slow call ends only once its progress was read: a reader woken only at the end would wait forever.
      if (event.partial) {
        expect(finished).toBe(false);
        release.open();
      }
    }
    expect(events.map((event) => event.partial === true)).toEqual([true, false]);
    expect(events[0]!.toolProgress).toEqual({ functionCallId: 'c1', toolName: 'slow', message: 'half way', fraction: 0.5 });
    expect(getFunctionResponses(events[1]!).map((response) => [response.id, response.response])).toEqual([
      ['c1', { done: true }],
      ['c2', { quick: true }],
    ]);
  });

  it('yields nothing once the run is cancelled: neither the progress already reported nor the responses', async () => {
    const { context, run } = await invocation();
    const tool = rawTool('reporter', (_args, ctx) => {
      ctx.reportProgress({ message: 'one' });
      ctx.reportProgress({ message: 'two' });
      return { ok: true };
    });
    const events: Event[] = [];
    for await (const event of executeFunctionCalls({ invocation: context, calls: [{ id: 'c1', name: 'reporter', args: {} }], tools: { reporter: tool }, callbacks: noCallbacks })) {
      events.push(event);
      run.abort(new Error('stop'));
    }
    expect(events.map((event) => event.toolProgress?.message)).toEqual(['one']);
  });

  it('a reader that stops early gets nothing more, and its calls still end', async () => {
    const { context } = await invocation();
    const release = gate();
    let ended = false;
    const tool = rawTool('slow', async (_args, ctx) => {
      ctx.reportProgress({ message: 'started' });
      await release.opened;
      ended = true;
      return {};
    });
    const run = executeFunctionCalls({ invocation: context, calls: [{ id: 'c1', name: 'slow', args: {} }], tools: { slow: tool }, callbacks: noCallbacks });
    const first = await run.next();
    expect(first.value?.toolProgress?.message).toBe('started');
    await run.return?.();
    release.open();
    expect(await run.next()).toEqual({ done: true, value: undefined });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ended).toBe(true);
  });
});
