// #30 point 3: the per-step tool selection seam (adk-js `beforeToolSelection`). Toolsets with
// `selectTools`, then plugins' and the agent's `beforeToolSelectionCallback` choose, each model
// step, which of the run's tools are declared; a call to a tool left out gets the unknown-tool
// error; a selector that returns junk ends the step with a REQUEST_ERROR naming it.
import { describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  LlmAgent,
  createUserContent,
  getFunctionResponses,
  isToolSelector,
  type BeforeToolSelectionCallback,
  type Event,
  type LlmRequest,
  type Plugin,
  type Tool,
  type ToolSelectionArgs,
  type Toolset,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool } from './support.js';

const declared = (request: Pick<LlmRequest, 'config'>) =>
  (request.config.tools ?? []).flatMap((entry) => entry.functionDeclarations ?? []).map((d) => d.name);

async function run(agent: LlmAgent, plugins: Plugin[] = []): Promise<Event[]> {
  const runner = new InMemoryRunner({ agent, appName: 'app', plugins });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go') })) events.push(event);
  return events;
}

const a = rawTool('a', () => ({ a: 1 }));
const b = rawTool('b', () => ({ b: 2 }));
const c = rawTool('c', () => ({ c: 3 }));

describe('#30: beforeToolSelectionCallback chooses the tools each step declares', () => {
  it('the agent callback sees the run tools and its choice is what the model is sent, step by step', async () => {
    const seen: string[][] = [];
    let step = 0;
    const select: BeforeToolSelectionCallback = ({ tools }) => {
      seen.push(tools.map((tool) => tool.name));
      step++;
      return step === 1 ? tools.filter((tool) => tool.name === 'a') : tools.filter((tool) => tool.name !== 'a');
    };
    const model = new ScriptedModel([functionCallResponse([{ name: 'a', args: {} }]), textResponse('done')]);
    const agent = new LlmAgent({ name: 'root', model, tools: [a, b, c], beforeToolSelectionCallback: select });
    const events = await run(agent);
    expect(seen).toEqual([['a', 'b', 'c'], ['a', 'b', 'c']]);
    expect(model.requests.map(declared)).toEqual([['a'], ['b', 'c']]);
    expect(getFunctionResponses(events.find((e) => getFunctionResponses(e).length > 0)!)[0]!.response).toEqual({ a: 1 });
  });

  it('a call to a tool the step left out gets the unknown-tool error, which names only the declared tools', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'c', args: {} }]), textResponse('done')]);
    const agent = new LlmAgent({
      name: 'root',
      model,
      tools: [a, b, c],
      beforeToolSelectionCallback: ({ tools }) => tools.filter((tool) => tool.name !== 'c'),
    });
    const events = await run(agent);
    const response = getFunctionResponses(events.find((e) => getFunctionResponses(e).length > 0)!)[0]!.response!;
    expect(String(response.error)).toMatch(/^tool 'c' not found\.\nAvailable tools: a, b\n/);
  });

  it('undefined keeps the list; the toolset selector runs first, then plugins in order, then the agent; each gets what the one before left', async () => {
    const order: string[] = [];
    const selecting: Toolset & { selectTools(args: ToolSelectionArgs): Tool[] } = {
      name: 'catalog',
      tools: async () => [b, c],
      selectTools: ({ tools }) => {
        order.push(`toolset:${tools.map((t) => t.name).join('')}`);
        return tools.filter((tool) => tool.name !== 'c');
      },
    };
    expect(isToolSelector(selecting)).toBe(true);
    expect(isToolSelector({ name: 'x', tools: async () => [] })).toBe(false);
    const plugins: Plugin[] = [
      { name: 'p1', beforeToolSelectionCallback: ({ tools }) => void order.push(`p1:${tools.map((t) => t.name).join('')}`) },
      {
        name: 'p2',
        beforeToolSelectionCallback({ tools }) {
          order.push(`${this.name}:${tools.map((t) => t.name).join('')}`);
          return [...tools].reverse();
        },
      },
    ];
    const model = new ScriptedModel([textResponse('done')]);
    const agent = new LlmAgent({
      name: 'root',
      model,
      tools: [a, selecting],
      beforeToolSelectionCallback: [({ tools }) => void order.push(`agent:${tools.map((t) => t.name).join('')}`)],
    });
    await run(agent, plugins);
    expect(order).toEqual(['toolset:abc', 'p1:ab', 'p2:ab', 'agent:ba']);
    expect(declared(model.requests[0]!)).toEqual(['b', 'a']);
  });

  it('a selector may add a tool the run did not list; its calls run', async () => {
    const extra = rawTool('extra', () => ({ extra: true }));
    const model = new ScriptedModel([functionCallResponse([{ name: 'extra', args: {} }]), textResponse('done')]);
    const agent = new LlmAgent({ name: 'root', model, tools: [a], beforeToolSelectionCallback: ({ tools }) => [...tools, extra] });
    const events = await run(agent);
    expect(declared(model.requests[0]!)).toEqual(['a', 'extra']);
    expect(getFunctionResponses(events.find((e) => getFunctionResponses(e).length > 0)!)[0]!.response).toEqual({ extra: true });
  });

  it('the selector reads state through its context (what tool search keeps there)', async () => {
    const model = new ScriptedModel([textResponse('done')]);
    let sessionId: string | undefined;
    const agent = new LlmAgent({
      name: 'root',
      model,
      tools: [a, b],
      beforeToolSelectionCallback: ({ context, tools }) => {
        sessionId = context.sessionId;
        return tools.filter((tool) => tool.name === (context.state.get('pick') ?? 'a'));
      },
    });
    const runner = new InMemoryRunner({ agent, appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's', state: { pick: 'b' } });
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go') })) void _;
    expect(declared(model.requests[0]!)).toEqual(['b']);
    expect(sessionId).toBe('s');
  });

  it('a selector that returns junk ends the step with a REQUEST_ERROR naming it; the model is not called', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const junk = (() => 'all of them') as unknown as BeforeToolSelectionCallback;
    const agent = new LlmAgent({ name: 'root', model, tools: [a], beforeToolSelectionCallback: junk });
    const events = await run(agent);
    expect(events.map((e) => [e.errorCode, e.errorMessage])).toEqual([
      ['REQUEST_ERROR', 'Tool selection by agent "root" returned string, not a list of tools; return the tools to declare, or undefined to keep them.'],
    ]);
    expect(model.requests).toHaveLength(0);

    const bad = new LlmAgent({
      name: 'root',
      model,
      tools: [a],
      beforeToolSelectionCallback: () => [a, { name: '__proto__' } as Tool],
    });
    const badEvents = await run(bad);
    expect(badEvents.map((e) => e.errorMessage)).toEqual([
      'Tool selection by agent "root" returned a list whose entry 1 is not a tool the flow can use.',
    ]);
  });

  it('a throwing plugin selector is a REQUEST_ERROR; nothing crashes', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new LlmAgent({ name: 'root', model, tools: [a] });
    const events = await run(agent, [{ name: 'p', beforeToolSelectionCallback: () => { throw new Error('index down'); } }]);
    expect(events.map((e) => [e.errorCode, e.errorMessage])).toEqual([['REQUEST_ERROR', 'index down']]);
  });
});
