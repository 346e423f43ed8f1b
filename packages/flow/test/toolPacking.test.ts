// #24, tool declarations per model step: the tools at the head of a step's list that only pack
// themselves (no processRequest, or one marked by markSelfPacking) are packed by the flow in one
// go, their dispatch table copied from the step before when the same tools declare the same
// objects. Every rule of packing still holds: each step's table and declaration lists are its own
// (what a callback or the model changes in one step never reaches the next, PK-1), a changed or
// unsendable declaration is seen at once (TOOL_REFUSED), a name taken twice is DUPLICATE_TOOL,
// `__proto__` stays a plain key, and a processor that does more than pack itself is still called.
import { describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  LlmAgent,
  createLlmRequest,
  createUserContent,
  markSelfPacking,
  packTool,
  registerTool,
  type Event,
  type FunctionDeclaration,
  type LlmRequest,
  type RequestContext,
  type RunnableTool,
  type Tool,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { isSelfPacking } from '../src/tools/packTool.js';
import { rawTool } from './support.js';

/** What BaseTool's processRequest is: packTool, a refusal as a rejected promise. */
const selfPacking = markSelfPacking(function (this: RunnableTool, _ctx: RequestContext, request: LlmRequest): Promise<void> | void {
  try {
    packTool(request, this);
  } catch (error) {
    return Promise.reject(error);
  }
});

/** A runnable tool packing itself through the marked processRequest, with a frozen declaration by default. */
function packingTool(name: string, run: () => unknown = () => ({ ok: name }), declaration?: () => FunctionDeclaration | undefined): RunnableTool {
  const declared = Object.freeze({ name, description: `the ${name} tool`, parametersJsonSchema: Object.freeze({ type: 'object' }) });
  const tool = rawTool(name, run, { declaration: declaration ?? (() => declared) });
  Object.defineProperty(tool, 'processRequest', { value: selfPacking, enumerable: false });
  return tool;
}

const declaredNames = (request: Pick<LlmRequest, 'config'>) => (request.config.tools ?? []).flatMap((entry) => entry.functionDeclarations ?? []).map((d) => d.name);

/** Runs `turns` user messages on one session, each a new run; every event in order. */
async function turns(agent: LlmAgent, count: number): Promise<Event[]> {
  const runner = new InMemoryRunner({ agent, appName: 'app' });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const events: Event[] = [];
  for (let i = 0; i < count; i++)
    for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent(`turn ${i}`) })) events.push(event);
  return events;
}

describe('#24: self-packing tools are packed in one go, each step with its own table', () => {
  it('markSelfPacking marks exactly the function given; another function (an override) is not marked', () => {
    const other = function (this: RunnableTool, _ctx: RequestContext, request: LlmRequest) {
      packTool(request, this);
    };
    expect(isSelfPacking(selfPacking)).toBe(true);
    expect(isSelfPacking(other)).toBe(false);
    expect(isSelfPacking(undefined)).toBe(false);
    expect(isSelfPacking({})).toBe(false);
  });

  it('PK-1/PK-4: every step and every run sends the same declarations and dispatch table, each step its own objects', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'b' }]), textResponse('one'), functionCallResponse([{ name: 'c' }]), textResponse('two'), textResponse('three')]);
    const tables: Record<string, Tool>[] = [];
    const lists: FunctionDeclaration[][] = [];
    const agent = new LlmAgent({
      name: 'a',
      model,
      tools: [packingTool('a'), packingTool('b'), packingTool('c')],
      beforeModelCallback: ({ request }) => {
        tables.push(request.tools);
        lists.push(request.config.tools![0]!.functionDeclarations!);
        return undefined;
      },
    });
    const events = await turns(agent, 3);
    expect(events.filter((event) => event.errorCode)).toEqual([]);
    expect(model.requests).toHaveLength(5);
    for (const request of model.requests) {
      expect(declaredNames(request)).toEqual(['a', 'b', 'c']);
      expect(Object.keys(request.tools)).toEqual(['a', 'b', 'c']);
    }
    expect(new Set(tables).size).toBe(5);
    expect(new Set(lists).size).toBe(5);
    // The calls went to the tools in the copied tables.
    const answers = events.flatMap((event) => event.content?.parts ?? []).filter((part) => part.functionResponse).map((part) => part.functionResponse!.response);
    expect(answers).toEqual([{ ok: 'b' }, { ok: 'c' }]);
  });

  it('a callback that changes step 1\'s table and declaration list (delete, add, replace, push) changes nothing step 2 or the next run sends', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'a' }]), textResponse('one'), textResponse('two')]);
    let step = 0;
    const agent = new LlmAgent({
      name: 'agent',
      model,
      tools: [packingTool('a'), packingTool('b')],
      beforeModelCallback: ({ request }) => {
        if (step++ > 0) return undefined;
        const list = request.config.tools![0]!.functionDeclarations!;
        list.push({ name: 'injected' });
        list[1] = { name: 'b', description: 'rewritten' };
        list.splice(0, 0, { name: 'first' });
        registerTool(request, rawTool('injected', () => ({})));
        delete (request.tools as Record<string, Tool>).b;
        // The declarations themselves are frozen: changing one throws instead of leaking.
        expect(() => {
          (list[1] as { description?: string }).description = 'again';
        }).toThrow(TypeError);
        return undefined;
      },
    });
    await turns(agent, 2);
    expect(model.requests).toHaveLength(3);
    expect(declaredNames(model.requests[0]!)).toEqual(['first', 'a', 'b', 'injected']);
    expect(model.requests[0]!.config.tools![0]!.functionDeclarations![2]!.description).toBe('rewritten');
    expect(Object.keys(model.requests[0]!.tools)).toEqual(['a', 'injected']);
    for (const request of model.requests.slice(1)) {
      expect(declaredNames(request)).toEqual(['a', 'b']);
      expect(request.config.tools![0]!.functionDeclarations!.map((d) => d.description)).toEqual(['the a tool', 'the b tool']);
      expect(Object.keys(request.tools)).toEqual(['a', 'b']);
    }
  });

  it('a model that changes the request it was sent changes nothing the next step sends', async () => {
    const sent: string[][] = [];
    let calls = 0;
    const model = {
      model: 'mutating',
      async *generateContent(request: LlmRequest) {
        sent.push(declaredNames(request), Object.keys(request.tools));
        request.config.tools!.length = 0;
        registerTool(request, rawTool('extra', () => ({})));
        yield calls++ === 0 ? { content: { role: 'model', parts: [{ functionCall: { name: 'a', args: {}, id: 'c1' } }] } } : { content: { role: 'model', parts: [{ text: 'done' }] } };
      },
    };
    await turns(new LlmAgent({ name: 'agent', model, tools: [packingTool('a'), packingTool('b')] }), 2);
    expect(sent).toEqual(Array.from({ length: 3 }, () => [['a', 'b'], ['a', 'b']]).flat());
  });

  it('a declaration that changes between steps is sent as it is now, and refused (TOOL_REFUSED) the step it cannot be sent', async () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    const versions: FunctionDeclaration[] = [
      Object.freeze({ name: 'shifty', description: 'v1' }),
      Object.freeze({ name: 'shifty', description: 'v1' }),
      Object.freeze({ name: 'shifty', description: 'v2' }),
      Object.freeze({ name: 'shifty', parametersJsonSchema: cyclic }),
    ];
    const model = new ScriptedModel([textResponse('1'), textResponse('2'), textResponse('3'), textResponse('4')]);
    // The step's number is how many requests the model has had.
    const agent = new LlmAgent({ name: 'agent', model, tools: [packingTool('a'), packingTool('shifty', undefined, () => versions[model.requests.length]), packingTool('z')] });
    const events = await turns(agent, 4);
    expect(model.requests.map((request) => request.config.tools![0]!.functionDeclarations!.map((d) => d.description))).toEqual([
      ['the a tool', 'v1', 'the z tool'],
      ['the a tool', 'v1', 'the z tool'],
      ['the a tool', 'v2', 'the z tool'],
      ['the a tool', 'the z tool'],
    ]);
    expect(Object.keys(model.requests[3]!.tools)).toEqual(['a', 'z']);
    expect(events.filter((event) => event.errorCode).map((event) => event.errorCode)).toEqual(['TOOL_REFUSED']);
  });

  it('a declaration() that throws on a later step refuses the tool that step only', async () => {
    const declared = Object.freeze({ name: 'flaky' });
    const model = new ScriptedModel([textResponse('1'), textResponse('2'), textResponse('3')]);
    const flaky = packingTool('flaky', undefined, () => {
      if (model.requests.length === 1) throw new Error('generator crashed');
      return declared;
    });
    const events = await turns(new LlmAgent({ name: 'agent', model, tools: [flaky, packingTool('b')] }), 3);
    expect(model.requests.map((request) => declaredNames(request))).toEqual([['flaky', 'b'], ['b'], ['flaky', 'b']]);
    expect(events.filter((event) => event.errorCode).map((event) => event.errorMessage)).toEqual(['Tool "flaky" is left out: its declaration() failed: generator crashed.']);
  });

  it('a tool whose name changes between steps is registered under its name of the step (the copied table follows)', async () => {
    const model = new ScriptedModel([textResponse('1'), textResponse('2'), textResponse('3'), functionCallResponse([{ name: 'renamed' }]), textResponse('4')]);
    const tool = packingTool('original');
    let name = 'original';
    Object.defineProperty(tool, 'name', { get: () => name });
    const agent = new LlmAgent({ name: 'agent', model, tools: [packingTool('a'), tool] });
    await turns(agent, 2);
    name = 'renamed';
    const events = await turns(agent, 2);
    expect(model.requests.map((request) => Object.keys(request.tools))).toEqual([['a', 'original'], ['a', 'original'], ['a', 'renamed'], ['a', 'renamed'], ['a', 'renamed']]);
    const answer = events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionResponse);
    expect(answer!.functionResponse!.response).toEqual({ ok: 'original' });
  });

  it('a tool packed twice in one step (a selector repeats it) is DUPLICATE_TOOL on every step, never hidden by a copied table', async () => {
    const a = packingTool('a');
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new LlmAgent({ name: 'agent', model, tools: [a, packingTool('b')], beforeToolSelectionCallback: () => [a, a] });
    const events = await turns(agent, 3);
    expect(events.filter((event) => event.errorCode).map((event) => [event.errorCode, event.errorMessage])).toEqual(
      Array.from({ length: 3 }, () => ['REQUEST_ERROR', expect.stringContaining('duplicate tool: "a"')]),
    );
    expect(model.requests).toHaveLength(0);
  });

  it('a tool named __proto__ is a plain key of every step\'s table, copied or not, and its calls reach it', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: '__proto__' }]), textResponse('one'), functionCallResponse([{ name: '__proto__' }]), textResponse('two')]);
    const events = await turns(new LlmAgent({ name: 'agent', model, tools: [packingTool('__proto__'), packingTool('constructor')] }), 2);
    expect(events.filter((event) => event.errorCode)).toEqual([]);
    const tables: Record<string, Tool>[] = [];
    const probe = new LlmAgent({
      name: 'probe',
      model: new ScriptedModel([textResponse('1'), textResponse('2')]),
      tools: [packingTool('__proto__'), packingTool('constructor')],
      beforeModelCallback: ({ request }) => {
        tables.push(request.tools);
        return undefined;
      },
    });
    await turns(probe, 2);
    for (const table of tables) {
      expect(Object.getPrototypeOf(table)).toBe(Object.prototype);
      expect(Object.keys(table)).toEqual(['__proto__', 'constructor']);
      expect(Object.getOwnPropertyDescriptor(table, '__proto__')!.value.name).toBe('__proto__');
    }
    const answers = events.flatMap((event) => event.content?.parts ?? []).filter((part) => part.functionResponse).map((part) => part.functionResponse!.response);
    expect(answers).toEqual([{ ok: '__proto__' }, { ok: '__proto__' }]);
  });

  it('a processor that does more than pack itself is called every step, after the self-packing tools before it, in order', async () => {
    const seen: string[][] = [];
    const custom: Tool & { processRequest(ctx: RequestContext, request: LlmRequest): void } = {
      name: 'custom',
      description: 'looks at the table',
      processRequest(_ctx, request) {
        seen.push(Object.keys(request.tools));
        registerTool(request, rawTool('added', () => ({})));
      },
    };
    const model = new ScriptedModel([textResponse('1'), textResponse('2')]);
    await turns(new LlmAgent({ name: 'agent', model, tools: [packingTool('a'), custom, packingTool('b')] }), 2);
    expect(seen).toEqual([['a'], ['a']]);
    for (const request of model.requests) expect(Object.keys(request.tools)).toEqual(['a', 'added', 'b']);
  });

  it('a processor after the self-packing tools that swaps one of their declarations for a cyclic one: the swap is refused (TOOL_REFUSED), every step', async () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    const swapper: Tool & { processRequest(ctx: RequestContext, request: LlmRequest): void } = {
      name: 'swapper',
      description: 'swaps a declaration',
      processRequest(_ctx, request) {
        const list = request.config.tools![0]!.functionDeclarations!;
        list[1] = { name: 'b', parametersJsonSchema: cyclic };
        list.push({ name: 'last' });
      },
    };
    const model = new ScriptedModel([textResponse('1'), textResponse('2')]);
    const events = await turns(new LlmAgent({ name: 'agent', model, tools: [packingTool('a'), packingTool('b'), swapper] }), 2);
    for (const request of model.requests) {
      expect(declaredNames(request)).toEqual(['a', 'last']);
      expect(Object.keys(request.tools)).toEqual(['a']);
    }
    expect(events.filter((event) => event.errorCode).map((event) => event.errorMessage)).toEqual(
      Array.from({ length: 2 }, () => expect.stringMatching(/^Tool "b" is left out: its parametersJsonSchema refers to itself/)),
    );
  });

  it('the flow\'s own tools are declared first, as before, also when the agent\'s tools come from a copied table', async () => {
    const child = new LlmAgent({ name: 'child', description: 'helps', model: new ScriptedModel([textResponse('hi')]) });
    const model = new ScriptedModel([textResponse('1'), textResponse('2')]);
    await turns(new LlmAgent({ name: 'agent', model, tools: [packingTool('a'), packingTool('b')], subAgents: [child] }), 2);
    expect(model.requests).toHaveLength(2);
    for (const request of model.requests) {
      expect(declaredNames(request)).toEqual(['transfer_to_agent', 'a', 'b']);
      expect(Object.keys(request.tools).sort()).toEqual(['a', 'b', 'transfer_to_agent']);
    }
  });
});

describe('#24: createLlmRequest', () => {
  it('the dispatch table is made on first read, the same object after, and never serialized', () => {
    const request = createLlmRequest({ model: 'm' });
    expect(Object.keys(request)).toEqual(['contents', 'config', 'model']);
    expect(JSON.parse(JSON.stringify(request))).toEqual({ contents: [], config: {}, model: 'm' });
    const table = request.tools;
    expect(request.tools).toBe(table);
    expect({ ...request }).not.toHaveProperty('tools');
    expect(() => {
      (request as { tools: unknown }).tools = {};
    }).toThrow(TypeError);
    expect(request.tools).toBe(table);
    expect(Object.keys(createLlmRequest())).toEqual(['contents', 'config']);
  });
});
