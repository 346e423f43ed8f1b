// Issue #9: the core tried as a hostile user would. Each case reproduces a defect found in review.
// Bad input tried: a consumer that stops iterating (break and return()), a model naming agents it
// was not offered, callbacks returning calls without ids, an unknown tool "recovered" with a
// non-object or a BigInt, `__proto__`/`constructor`/`toString` keys in state, args, results and
// merged actions, a handler that mutates its arguments, arguments and results nested 10,000 deep,
// state nested 200,000 deep, a plugin that throws, an AI-SDK-shaped tool, duplicate plugin names,
// and 1,000 runs on one caller signal.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  InMemoryRunner,
  LlmAgent,
  createUserContent,
  getFunctionCalls,
  getFunctionResponses,
  isAdkitError,
  type Event,
  type Plugin,
  type Session,
  type ToolContext,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool, runOnce } from './support.js';

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < depth; i++) value = { next: value };
  return value;
}

async function collect(runner: InMemoryRunner, text: string, sessionId = 's'): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId, newMessage: createUserContent(text) })) events.push(event);
  return events;
}

describe('leaving runAsync early cancels the run (#9 point 1)', () => {
  for (const how of ['break', 'return()'] as const)
    it(`${how}: in-flight tools see ctx.signal abort and nothing from them is saved afterwards`, async () => {
      let toolSignal: AbortSignal | undefined;
      const slow = rawTool('slow', async (_args, ctx) => {
        toolSignal = ctx.signal;
        ctx.reportProgress({ message: 'working' });
        await new Promise((resolve) => setTimeout(resolve, 300));
        ctx.state.set('late', true);
        return { done: true };
      });
      const model = new ScriptedModel([functionCallResponse([{ name: 'slow', id: 'c1' }]), textResponse('never')]);
      const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model, tools: [slow] }), autoCreateSession: true });
      const stream = runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go') });
      if (how === 'break') {
        for await (const event of stream) if (event.partial) break; // the tool is still running
      } else {
        while (!(await stream.next()).value?.partial);
        await stream.return(undefined);
      }
      expect(toolSignal?.aborted).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 350));
      const session = await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId: 's' });
      expect(session!.events.map((e) => e.author)).toEqual(['user', 'a']);
      expect(session!.state.late).toBeUndefined();
      expect(model.requests).toHaveLength(1);
    });

  it('a model call in progress sees its signal abort when the consumer leaves', async () => {
    let modelSignal: AbortSignal | undefined;
    const model = {
      model: 'slow-model',
      async *generateContent(_req: unknown, opts: { signal?: AbortSignal }) {
        modelSignal = opts.signal;
        yield textResponse('partial', { partial: true });
        await new Promise((resolve) => setTimeout(resolve, 200));
        yield textResponse('done');
      },
    };
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model }), autoCreateSession: true });
    for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('x') })) {
      expect(event.partial).toBe(true);
      break;
    }
    expect(modelSignal?.aborted).toBe(true);
  });
});

describe('transfer honours its limits (#9 point 2, FL-5 step 6)', () => {
  function tree(options: { disallowTransferToParent?: boolean; disallowTransferToPeers?: boolean }, target: string) {
    const childModel = new ScriptedModel([
      functionCallResponse([{ name: 'transfer_to_agent', args: { agent_name: target } }]),
      textResponse('I stay.'),
    ]);
    const peerModel = new ScriptedModel([textResponse('peer here')]);
    // The root hands over to the child first, so the child is the one that tries the transfer.
    const rootModel = new ScriptedModel([functionCallResponse([{ name: 'transfer_to_agent', args: { agent_name: 'child' } }])]);
    const grandchild = new LlmAgent({ name: 'grandchild', model: new ScriptedModel([textResponse('deep')]) });
    const child = new LlmAgent({ name: 'child', model: childModel, ...options });
    const peer = new LlmAgent({ name: 'peer', model: peerModel, subAgents: [grandchild] });
    const root = new LlmAgent({ name: 'root', model: rootModel, subAgents: [child, peer] });
    return { root, peerModel, rootModel };
  }

  it.each([
    [{ disallowTransferToParent: true }, 'root', 'Allowed targets: peer.'],
    [{ disallowTransferToPeers: true }, 'peer', 'Allowed targets: root.'],
    [{}, 'grandchild', 'Allowed targets: root, peer.'],
    [{}, 'stranger', 'Allowed targets: root, peer.'],
  ])('with %j, naming %s is an error for the model and nothing runs', async (options, target, allowed) => {
    const { root, peerModel, rootModel } = tree(options, target);
    const runner = new InMemoryRunner({ agent: root, autoCreateSession: true });
    const events = await collect(runner, 'go');
    expect(getFunctionResponses(events[3]!)[0]!.response).toEqual({
      error: `Cannot transfer to agent "${target}": it is not a transfer target here. ${allowed}`,
    });
    expect(events.map((e) => e.author)).toEqual(['root', 'root', 'child', 'child', 'child']);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('I stay.');
    expect([peerModel.requests.length, rootModel.requests.length]).toEqual([0, 1]);
  });
});

describe('every function call has an id (#9 point 3, FL-7)', () => {
  it('calls returned by a before-model callback or a plugin get adk- ids; ctx.functionCallId is never empty', async () => {
    const seen: string[] = [];
    const echo = rawTool('echo', (_args, ctx) => (seen.push(ctx.functionCallId), { ok: true }));
    const plugin: Plugin = {
      name: 'shortcut',
      beforeModelCallback: ({ request }) => (request.contents.length === 1 ? functionCallResponse([{ name: 'echo' }]) : undefined),
    };
    const agentCallback = ({ request }: { request: { contents: unknown[] } }) =>
      request.contents.length === 3 ? functionCallResponse([{ name: 'echo' }, { name: 'echo' }]) : undefined;
    const model = new ScriptedModel([textResponse('done')]);
    const agent = new LlmAgent({ name: 'a', model, tools: [echo], beforeModelCallback: agentCallback });
    const runner = new InMemoryRunner({ agent, plugins: [plugin], autoCreateSession: true });
    const events = await collect(runner, 'go');
    const ids = events.flatMap(getFunctionCalls).map((call) => call.id);
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(id).toMatch(/^adk-[0-9a-f-]{36}$/);
    expect(seen).toEqual(ids);
    expect(events.flatMap(getFunctionResponses).map((r) => r.id)).toEqual(ids);
  });
});

describe('one result path (#9 point 4)', () => {
  it('a result an on-error callback recovers for an unknown tool is wrapped and normalised like any other', async () => {
    const recoveries: unknown[] = ['plain text', { when: new Date(0) }, { big: 10n }];
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'nope', id: 'a' }, { name: 'nope', id: 'b' }, { name: 'nope', id: 'c' }]),
      textResponse('ok'),
    ]);
    let i = 0;
    const agent = new LlmAgent({ name: 'x', model, onToolErrorCallback: () => recoveries[i++] as Record<string, unknown> });
    const { events } = await runOnce(agent, 'go');
    expect(getFunctionResponses(events[1]!).map((r) => r.response)).toEqual([
      { result: 'plain text' },
      { when: '1970-01-01T00:00:00.000Z' },
      {
        error:
          'Tool "nope" returned a result that is not JSON-serializable: $.big is a BigInt (10n); convert it to a number or a string. Return plain data (objects, arrays, strings, numbers, booleans, null).',
      },
    ]);
  });
});

describe('prototype keys are data (#9 point 5)', () => {
  it('__proto__, constructor and toString keys in state, args and results are stored, copied, merged and read back', async () => {
    const args = JSON.parse('{"__proto__":{"admin":true},"constructor":"c","toString":"t"}') as Record<string, unknown>;
    const seen: Record<string, unknown>[] = [];
    const writer = rawTool('write', (a, ctx: ToolContext) => {
      seen.push(a);
      ctx.state.set('__proto__', { polluted: true });
      ctx.state.set('constructor', 'state-c');
      ctx.state.set('plain', 1);
      return JSON.parse('{"__proto__":{"x":1},"toString":"r"}') as Record<string, unknown>;
    });
    const other = rawTool('other', (_a, ctx: ToolContext) => (ctx.state.set('toString', 'o'), { ok: true }));
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'write', args, id: 'w' }, { name: 'other', id: 'o' }]),
      textResponse('done'),
    ]);
    const { events, runner, sessionId } = await runOnce(new LlmAgent({ name: 'a', model, tools: [writer, other] }), 'go');
    expect(Object.keys(seen[0]!)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(seen[0]!)).toBe(Object.prototype);
    const merged = events[1]!;
    expect(Object.keys(merged.actions.stateDelta).sort()).toEqual(['__proto__', 'constructor', 'plain', 'toString']);
    expect(Object.getPrototypeOf(merged.actions.stateDelta)).toBe(Object.prototype);
    expect(getFunctionResponses(merged)[0]!.response).toEqual(JSON.parse('{"__proto__":{"x":1},"toString":"r"}'));
    expect(Object.hasOwn(getFunctionResponses(merged)[0]!.response!, '__proto__')).toBe(true);
    const session = (await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId }))!;
    expect(Object.hasOwn(session.state, '__proto__')).toBe(true);
    expect(session.state.plain).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Reading a key the state does not hold never returns something inherited.
    const reader = rawTool('read', (_a, ctx: ToolContext) => ({ missing: ctx.state.get('hasOwnProperty') ?? null, has: ctx.state.has('valueOf'), polluted: ctx.state.get('polluted') ?? null }));
    const again = new ScriptedModel([functionCallResponse([{ name: 'read', id: 'r' }]), textResponse('ok')]);
    const second = await runOnce(new LlmAgent({ name: 'a', model: again, tools: [reader] }), 'read', { runner: new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model: again, tools: [reader] }), appName: 'test' }) });
    expect(getFunctionResponses(second.events[1]!)[0]!.response).toEqual({ missing: null, has: false, polluted: null });
  });
});

describe('a handler gets its own arguments (#9 point 6)', () => {
  it('mutating args inside run changes neither the yielded event, the stored event nor the next request', async () => {
    const mutate = rawTool('mutate', (args) => {
      (args.list as number[]).push(99);
      args.added = true;
      delete args.city;
      return { ok: true };
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'mutate', args: { city: 'Lisbon', list: [1] }, id: 'm' }]), textResponse('ok')]);
    const { events, runner, sessionId } = await runOnce(new LlmAgent({ name: 'a', model, tools: [mutate] }), 'go');
    const original = { city: 'Lisbon', list: [1] };
    expect(getFunctionCalls(events[0]!)[0]!.args).toEqual(original);
    const stored = (await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId }))!;
    expect(getFunctionCalls(stored.events[1]!)[0]!.args).toEqual(original);
    expect(model.requests[1]!.contents[1]!.parts![0]!.functionCall!.args).toEqual(original);
  });
});

describe('values the store cannot hold never throw out of runAsync (#9 point 8)', () => {
  it('arguments nested 10,000 deep become an error for the model; the saved call keeps {}', async () => {
    let ran = false;
    const tool = rawTool('deep', () => ((ran = true), { ok: true }));
    const model = new ScriptedModel([() => functionCallResponse([{ name: 'deep', args: nested(10_000), id: 'd' }]), textResponse('ok')]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools: [tool] }), 'go').catch((error: unknown) => {
      throw new Error(`runAsync threw: ${String(error)}`);
    });
    expect(ran).toBe(false);
    expect(getFunctionCalls(events[0]!)[0]!.args).toEqual({});
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({
      error: 'The arguments of "deep" nest deeper than 100 levels, which is not accepted; call it again with flatter arguments.',
    });
  });

  it('a result nested 10,000 deep is an error for the model', async () => {
    const tool = rawTool('deep', () => nested(10_000));
    const model = new ScriptedModel([functionCallResponse([{ name: 'deep', id: 'd' }]), textResponse('ok')]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools: [tool] }), 'go');
    expect(String(getFunctionResponses(events[1]!)[0]!.response!.error)).toMatch(
      /^Tool "deep" returned a result that is not JSON-serializable: \$\.next\.next.*nests deeper than 100 levels; flatten the data\./,
    );
  });

  it('state nested 200,000 deep is refused as an error for the model, and not saved', async () => {
    const tool = rawTool('hoard', (_a, ctx: ToolContext) => (ctx.state.set('blob', nested(200_000)), { ok: true }));
    const model = new ScriptedModel([functionCallResponse([{ name: 'hoard', id: 'h' }]), textResponse('ok')]);
    const { events, runner, sessionId } = await runOnce(new LlmAgent({ name: 'a', model, tools: [tool] }), 'go');
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({
      error: 'Tool "hoard" wrote state nested deeper than 100 levels; the change was not saved.',
    });
    const stored = (await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId }))!;
    expect(stored.state.blob).toBeUndefined();
  });

  it('an event the store refuses ends the run with a saved STORE_ERROR event instead of a throw', async () => {
    const runner = new InMemoryRunner({
      agent: new LlmAgent({ name: 'a', model: new ScriptedModel([functionCallResponse([{ name: 'x', id: 'x' }]), textResponse('never')]), tools: [rawTool('x', () => ({ ok: true }))] }),
      autoCreateSession: true,
    });
    const append = runner.sessionService.appendEvent.bind(runner.sessionService);
    runner.sessionService.appendEvent = async (session, event) => {
      if (getFunctionResponses(event).length > 0) throw new Error('disk full');
      return append(session, event);
    };
    const events = await collect(runner, 'go');
    expect(events.map((e) => e.errorCode ?? e.author)).toEqual(['a', 'STORE_ERROR']);
    expect(events.at(-1)!.errorMessage).toBe('The session store refused an event from "a": disk full');
  });

  it('a store whose appendEvent throws at once (no promise) or answers with a plain value is handled like an async one', async () => {
    const runner = new InMemoryRunner({
      agent: new LlmAgent({ name: 'a', model: new ScriptedModel([functionCallResponse([{ name: 'x', id: 'x' }]), textResponse('never')]), tools: [rawTool('x', () => ({ ok: true }))] }),
      autoCreateSession: true,
    });
    const append = runner.sessionService.appendEvent.bind(runner.sessionService);
    let plainAnswers = 0;
    (runner.sessionService as { appendEvent: unknown }).appendEvent = (session: Session, event: Event) => {
      if (getFunctionResponses(event).length > 0) throw new Error('disk full');
      if (event.author === 'user') {
        // Stored, then answered with the event itself instead of a promise of it.
        void append(session, event);
        plainAnswers++;
        return event;
      }
      return append(session, event);
    };
    const events = await collect(runner, 'go');
    expect(plainAnswers).toBe(1);
    expect(events.map((e) => e.errorCode ?? e.author)).toEqual(['a', 'STORE_ERROR']);
    expect(events.at(-1)!.errorMessage).toBe('The session store refused an event from "a": disk full');
    const stored = (await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId: 's' }))!;
    expect(stored.events.map((e) => e.errorCode ?? e.author)).toEqual(['user', 'a', 'STORE_ERROR']);
  });

  it("the user's message refused by the store, with a rejection or a throw at once, ends the run with a saved STORE_ERROR event; the model is never called", async () => {
    for (const refuse of ['reject', 'throw'] as const) {
      const model = new ScriptedModel([textResponse('never')]);
      const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model }), autoCreateSession: true });
      const append = runner.sessionService.appendEvent.bind(runner.sessionService);
      (runner.sessionService as { appendEvent: unknown }).appendEvent = (session: Session, event: Event) => {
        if (event.author !== 'user') return append(session, event);
        if (refuse === 'throw') throw new Error('read-only replica');
        return Promise.reject(new Error('read-only replica'));
      };
      const events = await collect(runner, 'go');
      expect(events.map((e) => e.errorCode ?? e.author), refuse).toEqual(['STORE_ERROR']);
      expect(events[0]!.author).toBe('a');
      expect(events[0]!.errorMessage).toBe('The session store refused an event from "user": read-only replica');
      expect(model.requests, refuse).toHaveLength(0);
      const stored = (await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId: 's' }))!;
      expect(stored.events.map((e) => e.errorCode ?? e.author), refuse).toEqual(['STORE_ERROR']);
    }
  });

  it('a plugin onEventCallback that throws ends the run with a saved PLUGIN_ERROR event', async () => {
    const plugin: Plugin = {
      name: 'flaky',
      onEventCallback: ({ event }) => {
        if (event.author === 'a') throw new Error('metrics backend down');
      },
    };
    const model = new ScriptedModel([textResponse('hello')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model }), plugins: [plugin], autoCreateSession: true });
    const events = await collect(runner, 'go');
    expect(events.map((e) => [e.errorCode, e.errorMessage])).toEqual([
      ['PLUGIN_ERROR', 'Plugin "flaky" failed in onEventCallback: metrics backend down'],
    ]);
    const stored = (await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId: 's' }))!;
    expect(stored.events.map((e) => e.errorCode ?? e.author)).toEqual(['user', 'PLUGIN_ERROR']);
  });

  it('a run a plugin ends cancels the tools still running', async () => {
    let toolSignal: AbortSignal | undefined;
    const slow = rawTool('slow', async (_a, ctx) => {
      toolSignal = ctx.signal;
      ctx.reportProgress({ message: 'working' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { ok: true };
    });
    const plugin: Plugin = {
      name: 'strict',
      onEventCallback: ({ event }) => {
        if (event.partial) throw new Error('no progress events allowed');
      },
    };
    const model = new ScriptedModel([functionCallResponse([{ name: 'slow', id: 's' }]), textResponse('never')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model, tools: [slow] }), plugins: [plugin], autoCreateSession: true });
    const events = await collect(runner, 'go');
    expect(events.at(-1)!.errorCode).toBe('PLUGIN_ERROR');
    expect(toolSignal?.aborted).toBe(true);
  });

  it('beforeRun and afterRun callbacks that throw follow the same policy', async () => {
    for (const key of ['beforeRunCallback', 'afterRunCallback'] as const) {
      const plugin: Plugin = { name: 'p', [key]: () => Promise.reject(new Error('boom')) };
      const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model: new ScriptedModel([textResponse('hi')]) }), plugins: [plugin], autoCreateSession: true });
      const events = await collect(runner, 'go');
      expect(events.at(-1)).toMatchObject({ errorCode: 'PLUGIN_ERROR', errorMessage: `Plugin "p" failed in ${key}: boom` });
    }
  });
});

describe('construction refuses what the flow cannot call (#9 points 10, 14)', () => {
  it('an AI-SDK-shaped tool throws a ConfigError that says to wrap it with functionTool()', () => {
    const aiSdkTool = { name: 'weather', description: 'Weather', execute: async () => ({ c: 21 }) };
    expect(() => new LlmAgent({ name: 'a', tools: [aiSdkTool as never] })).toThrow(
      new ConfigError(
        'LlmAgent "a": tools[0] ("weather") cannot be called by the flow: it has no declaration()/run(), runStream() or processRequest() (an object with execute() looks like another SDK\'s tool). Wrap it with functionTool({ name, description, parameters, execute }) from @adkit/function-tool.',
      ),
    );
  });

  it('duplicate plugin names are a ConfigError, checked by code', () => {
    const error = (() => {
      try {
        new InMemoryRunner({ agent: new LlmAgent({ name: 'a' }), plugins: [{ name: 'p' }, { name: 'p' }] });
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(isAdkitError(error) && error.code).toBe('INVALID_CONFIG');
  });
});

describe('no listener leak (#9 point 12)', () => {
  it('1,000 runs on one caller signal leave no abort listener behind', async () => {
    const caller = new AbortController();
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model: new ScriptedModel(Array.from({ length: 1000 }, () => textResponse('hi'))) }), autoCreateSession: true });
    for (let i = 0; i < 1000; i++)
      for await (const _ of runner.runAsync({ userId: 'u', sessionId: `s${i % 5}`, newMessage: createUserContent('x'), signal: caller.signal }));
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  }, 60_000);
});

describe('unprintable throws (#9, found by review)', () => {
  it('a tool throwing undefined, null or an unprintable object gives the model an error, and the run goes on', async () => {
    const unprintable = Object.assign(Object.create(null) as object, { big: 1n });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'u', id: 'u' }, { name: 'n', id: 'n' }, { name: 'x', id: 'x' }]),
      textResponse('ok'),
    ]);
    const tools = [
      rawTool('u', () => Promise.reject(undefined)),
      rawTool('n', () => Promise.reject(null)),
      rawTool('x', () => Promise.reject(unprintable)),
    ];
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools }), 'go');
    expect(getFunctionResponses(events[1]!).map((r) => r.response)).toEqual([
      { error: 'Tool "u" failed: it threw undefined.' },
      { error: 'Tool "n" failed: it threw null.' },
      { error: 'Tool "x" failed: [object Object]' },
    ]);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('ok');
  });
});

describe('a message the store could not hold (#9 point 8, found by the dev UI)', () => {
  it('a function response nested 10,000 deep is refused before anything is saved; the session keeps working', async () => {
    const model = new ScriptedModel([textResponse('still fine')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model }), autoCreateSession: true });
    const deep = { role: 'user', parts: [{ functionResponse: { id: 'x', name: 'x', response: nested(10_000) } }] };
    const stream = runner.runAsync({ userId: 'u', sessionId: 's', newMessage: deep });
    await expect(stream.next()).rejects.toMatchObject({ code: 'INVALID_MESSAGE' });
    const events = await collect(runner, 'hello');
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('still fine');
  });
});
