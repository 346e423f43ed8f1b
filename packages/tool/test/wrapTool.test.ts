// #9 point 11: one wrapping helper, and wrappers keep every capability of what they wrap. Bad input
// tried: a tool with every capability the flow knows plus an unknown future one and a symbol-keyed
// one, class tools with private fields (a wrapper must call them with the right `this`), tools
// named `__proto__` and `constructor`, a processor registering a name that is already taken.
import {
  createLlmRequest,
  getFunctionResponses,
  isClosable,
  isRequestProcessor,
  isResponseDeferrer,
  isResumableTool,
  isRunnableTool,
  isSelfPacking,
  isSkipSummarizationResultDisplayer,
  isStreamingTool,
  LlmAgent,
  type FunctionDeclaration,
  type LlmRequest,
  type RequestContext,
  type Tool,
  type ToolContext,
  type Toolset,
} from '@adkit/flow';
import { createToolContext, functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { BaseTool, packTool, prefixTool, registerTool, wrapTool, wrapToolset } from '../src/index.js';
import { rawStreamingTool, rawTool, runOnce } from './support.js';

const ctx = createToolContext();
const FUTURE = Symbol('future capability');

/** A class tool with every capability, private state, and two the flow does not know yet. */
class Everything extends BaseTool {
  readonly calls: string[] = [];
  #secret = 'kept';
  constructor() {
    super({ name: 'everything', description: 'Does it all.', isLongRunning: true, timeoutMs: 250, idempotent: true });
  }
  declaration() {
    return { name: this.name, description: this.declaredDescription() };
  }
  async run(_ctx: ToolContext, args: Record<string, unknown>) {
    this.calls.push('run');
    return { secret: this.#secret, args };
  }
  async *runStream() {
    this.calls.push('runStream');
    yield this.#secret;
  }
  async resume(_ctx: ToolContext, response: Record<string, unknown>) {
    this.calls.push('resume');
    return { resumed: response, secret: this.#secret };
  }
  async close() {
    this.calls.push('close');
  }
  defersResponse() {
    return true;
  }
  displayResultOnSkipSummarization() {
    return true;
  }
  futureCapability() {
    return this.#secret;
  }
  [FUTURE]() {
    return `symbol ${this.#secret}`;
  }
}

const guards = {
  isRunnableTool,
  isStreamingTool,
  isRequestProcessor,
  isResponseDeferrer,
  isSkipSummarizationResultDisplayer,
  isResumableTool,
  isClosable,
} as const;

function capabilities(tool: Tool): string[] {
  return Object.entries(guards)
    .filter(([, guard]) => (guard as (t: Tool) => boolean)(tool))
    .map(([name]) => name);
}

type Full = Everything & Record<typeof FUTURE, () => string>;

describe('wrapTool (#9 point 11)', () => {
  it('keeps every capability, known or not yet known, each calling the original with its own this', async () => {
    const tool = new Everything();
    const wrapper = wrapTool(tool) as Full;
    expect(capabilities(wrapper)).toEqual(capabilities(tool));
    expect(capabilities(wrapper)).toHaveLength(Object.keys(guards).length);
    expect([wrapper.name, wrapper.description, wrapper.isLongRunning, wrapper.timeoutMs, wrapper.idempotent]).toEqual([
      'everything',
      'Does it all.',
      true,
      250,
      true,
    ]);
    expect(await wrapper.run(ctx, { a: 1 })).toEqual({ secret: 'kept', args: { a: 1 } });
    const chunks: string[] = [];
    for await (const chunk of wrapper.runStream()) chunks.push(chunk);
    expect(chunks).toEqual(['kept']);
    expect(await wrapper.resume(ctx, { ok: true })).toEqual({ resumed: { ok: true }, secret: 'kept' });
    await wrapper.close();
    expect([wrapper.defersResponse(), wrapper.displayResultOnSkipSummarization()]).toEqual([true, true]);
    expect(wrapper.futureCapability()).toBe('kept');
    expect(wrapper[FUTURE]()).toBe('symbol kept');
    expect(wrapper.declaration()).toEqual(tool.declaration());
    expect(tool.calls).toEqual(['run', 'runStream', 'resume', 'close']);
  });

  it('has no capability the original lacks, for each shape of tool', () => {
    const shapes: Tool[] = [
      rawTool('plain'),
      rawStreamingTool('ticker', ['a']),
      { name: 'shaper', description: 'shapes', processRequest: async () => {} } as Tool,
      { name: 'bare', description: 'nothing' },
      rawTool('later', () => undefined, { defersResponse: () => true, resume: async () => ({}) }),
    ];
    for (const tool of shapes) {
      expect(capabilities(wrapTool(tool))).toEqual(capabilities(tool));
      expect(capabilities(prefixTool(tool, 'p'))).toEqual(capabilities(tool));
    }
  });

  it('reads the original\'s settings live and replaces only what overrides gives', async () => {
    const tool = rawTool('search', () => ({ from: 'inner' })) as ReturnType<typeof rawTool> & { timeoutMs?: number };
    const wrapper = wrapTool(tool, { overrides: { run: async () => ({ from: 'wrapper' }) } });
    expect(await wrapper.run(ctx, {})).toEqual({ from: 'wrapper' });
    expect(await tool.run(ctx, {})).toEqual({ from: 'inner' });
    tool.timeoutMs = 99;
    expect(wrapper.timeoutMs).toBe(99);
    expect(wrapper.declaration()).toBe(tool.declaration());
  });

  it('rename: the name and the declaration change, the original does not', () => {
    const tool = rawTool('search');
    const wrapper = wrapTool(tool, { rename: (name) => `web_${name}` });
    expect(wrapper.name).toBe('web_search');
    expect(wrapper.declaration()).toEqual({ ...tool.declaration(), name: 'web_search' });
    expect(tool.declaration()!.name).toBe('search');
  });

  it('#24 rename: a frozen declaration is renamed once (the same frozen copy every step); one that can change is copied per call', () => {
    const frozen = Object.freeze({ name: 'search', description: 'v1', parametersJsonSchema: Object.freeze({ type: 'object' }) });
    let current: FunctionDeclaration = frozen;
    const tool = rawTool('search', undefined, { declaration: () => current });
    const wrapper = wrapTool(tool, { rename: (name) => `web_${name}` });
    const renamed = wrapper.declaration()!;
    expect(renamed).toEqual({ ...frozen, name: 'web_search' });
    expect(wrapper.declaration()).toBe(renamed);
    expect(Object.isFrozen(renamed)).toBe(true);
    // A new declaration from the tool is renamed anew.
    current = Object.freeze({ ...frozen, description: 'v2' });
    expect(wrapper.declaration()).toEqual({ ...current, name: 'web_search' });
    // An unfrozen one may change in place between calls: each call copies what it is now.
    const mutable: FunctionDeclaration = { name: 'search', description: 'v3' };
    current = mutable;
    expect(wrapper.declaration()!.description).toBe('v3');
    mutable.description = 'v4';
    expect(wrapper.declaration()).toEqual({ name: 'web_search', description: 'v4' });
    expect(mutable.name).toBe('search');
  });

  it('#24: a wrapped BaseTool packs itself like one (the flow packs it with the others); a processRequest override or a declaration override keeps the wrapped processRequest', async () => {
    class Plain extends BaseTool {
      private readonly declared = Object.freeze({ name: 'plain', description: 'plain', parametersJsonSchema: Object.freeze({ type: 'object' }) });
      declaration() {
        return this.declared;
      }
      async run() {
        return { plain: true };
      }
    }
    class Busy extends Plain {
      override processRequest(ctx: RequestContext, request: LlmRequest) {
        return super.processRequest(ctx, request);
      }
    }
    const renamed = prefixTool(new Plain({ name: 'plain', description: 'plain' }), 'web');
    expect(isSelfPacking((renamed as Plain).processRequest)).toBe(true);
    expect(isSelfPacking((prefixTool(new Busy({ name: 'plain', description: 'plain' }), 'web') as Busy).processRequest)).toBe(false);
    const overridden = wrapTool(new Plain({ name: 'plain', description: 'plain' }), { overrides: { declaration: () => ({ name: 'plain', description: 'other' }) } });
    expect(isSelfPacking((overridden as Plain).processRequest)).toBe(false);

    // Packed by hand and through the flow: the wrapper under its name, with its renamed declaration.
    const request = createLlmRequest();
    await (renamed as Plain).processRequest(ctx, request);
    expect(request.tools.web_plain).toBe(renamed);
    expect(request.config.tools).toEqual([{ functionDeclarations: [{ name: 'web_plain', description: 'plain', parametersJsonSchema: { type: 'object' } }] }]);
    await expect(Promise.resolve((renamed as Plain).processRequest(ctx, request))).rejects.toThrow('duplicate tool: "web_plain"');
    const model = new ScriptedModel([textResponse('1'), functionCallResponse([{ name: 'web_plain' }]), textResponse('2')]);
    const agent = new LlmAgent({ name: 'a', model, tools: [renamed] });
    await runOnce(agent, 'one');
    const { events } = await runOnce(agent, 'two');
    for (const sent of model.requests) {
      expect(Object.keys(sent.tools)).toEqual(['web_plain']);
      expect(sent.config.tools![0]!.functionDeclarations!.map((d) => d.name)).toEqual(['web_plain']);
    }
    expect(getFunctionResponses(events.find((event) => getFunctionResponses(event).length > 0)!)[0]!.response).toEqual({ plain: true });
  });

  it('a self-registering tool registers the wrapper; the others it registers go through wrapRegistered', async () => {
    const helper = rawTool('helper');
    const tool = Object.assign(rawTool('main'), {
      async processRequest(_ctx: RequestContext, request: LlmRequest) {
        packTool(request, tool);
        packTool(request, helper);
      },
    });
    const wrapped: Tool[] = [];
    const wrapper = wrapTool(tool, {
      rename: (name) => `x_${name}`,
      wrapRegistered: (registered) => {
        wrapped.push(registered);
        return wrapTool(registered, { rename: (name) => `x_${name}` });
      },
    });
    const request = createLlmRequest();
    await wrapper.processRequest(ctx, request);
    expect(Object.keys(request.tools)).toEqual(['x_main', 'x_helper']);
    expect(request.tools.x_main).toBe(wrapper);
    expect(wrapped).toEqual([helper]);
    expect(request.config.tools![0]!.functionDeclarations!.map((d) => d.name)).toEqual(['x_main', 'x_helper']);
  });

  it('a name that is taken is refused before any registration, and the flow runs wrapped class tools', async () => {
    const tool = new Everything();
    const request = createLlmRequest();
    registerTool(request, rawTool('other'), 'everything');
    await expect(wrapTool(tool).processRequest(ctx, request)).rejects.toThrow('duplicate tool: "everything"');
    expect(Object.keys(request.tools)).toEqual(['everything']);


    // Through the flow: the class tool registers itself, the wrapper is what runs, with `this` intact.
    class Secret extends BaseTool {
      #secret = 's3cret';
      constructor() {
        super({ name: 'secret', description: 'Tells a secret.' });
      }
      declaration() {
        return { name: this.name, description: this.description };
      }
      async run() {
        return { secret: this.#secret };
      }
    }
    let wrapperRuns = 0;
    const inner = new Secret();
    const wrapper = wrapTool(inner, {
      overrides: {
        run: () => {
          wrapperRuns++;
          return inner.run();
        },
      },
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'secret', args: {} }]), textResponse('done')]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools: [wrapper] }));
    expect(model.requests[0]!.tools.secret).toBe(wrapper);
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({ secret: 's3cret' });
    expect(wrapperRuns).toBe(1);
  });
});

describe('registerTool: the one way to write request.tools', () => {
  it('refuses a taken name, and keeps names such as __proto__ and constructor as plain keys', () => {
    const request = createLlmRequest();
    const proto = rawTool('__proto__');
    registerTool(request, proto);
    registerTool(request, rawTool('constructor'));
    expect(Object.getPrototypeOf(request.tools)).toBe(Object.prototype);
    expect(Object.keys(request.tools)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(request.tools, '__proto__')!.value).toBe(proto);
    expect(() => registerTool(request, rawTool('__proto__'))).toThrow('duplicate tool: "__proto__"');
    expect(request.config.tools).toBeUndefined(); // registering declares nothing
  });
});

describe('wrapToolset (#9 point 11)', () => {
  it('keeps the name and every capability, maps the tools, and wraps what processRequest registers', async () => {
    const calls: string[] = [];
    const helper = rawTool('helper');
    const inner = {
      name: 'pack',
      tools: async () => [rawTool('a'), rawTool('b')],
      close: async () => void calls.push('close'),
      processRequest: async (_c: RequestContext, request: LlmRequest) => packTool(request, helper),
      future: () => 'kept',
    } satisfies Toolset & Record<string, unknown>;
    const wrapper = wrapToolset(inner, {
      tools: (tools) => tools.filter((tool) => tool.name !== 'b'),
      rename: (name) => `p_${name}`,
      wrapRegistered: (tool) => prefixTool(tool, 'p'),
    }) as typeof inner;
    expect(wrapper.name).toBe('pack');
    expect((await wrapper.tools()).map((t) => t.name)).toEqual(['a']);
    await wrapper.close();
    expect(calls).toEqual(['close']);
    expect(wrapper.future()).toBe('kept');
    const request = createLlmRequest();
    await wrapper.processRequest(ctx, request);
    expect(request.tools.p_helper).toBe(prefixTool(helper, 'p'));
    expect(isClosable(wrapToolset({ name: 'x', tools: async () => [] }))).toBe(false);
  });
});
