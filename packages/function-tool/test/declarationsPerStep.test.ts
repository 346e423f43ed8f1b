// #24, tool declarations per model step: a function tool's declaration is built once, frozen
// through, and sent by every step of every run; the flow packs function tools in one go. What a
// callback, a plugin or the model changes in one step's request never reaches the next step or
// the next run, and a change to the declaration itself is a TypeError rather than a leak.
import { InMemoryRunner, LlmAgent, createUserContent, type Event, type FunctionDeclaration, type LlmRequest, type Plugin } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { BaseTool } from '@adkit/tool';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { functionTool, streamingFunctionTool } from '../src/index.js';

const parameters = Type.Object({ city: Type.String(), days: Type.Optional(Type.Integer({ minimum: 1 })) });

function weather(name: string) {
  return functionTool({
    name,
    description: `Weather, ${name}.`,
    parameters,
    response: Type.Object({ celsius: Type.Number() }),
    execute: () => ({ celsius: 21 }),
  });
}

async function turns(agent: LlmAgent, count: number, plugins: Plugin[] = []): Promise<Event[]> {
  const runner = new InMemoryRunner({ agent, appName: 'app', plugins });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const events: Event[] = [];
  for (let i = 0; i < count; i++)
    for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent(`turn ${i}`) })) events.push(event);
  return events;
}

const declarationsOf = (request: Pick<LlmRequest, 'config'>) => (request.config.tools ?? []).flatMap((entry) => entry.functionDeclarations ?? []);

describe('#24: a function tool\'s declaration is built once and cannot be changed by a step', () => {
  it('functionTool, with TypeBox or zod schemas, and streamingFunctionTool: the declaration is frozen through (parameters and response schemas)', () => {
    const tools = [
      weather('typebox'),
      functionTool({ name: 'zod', description: 'z', parameters: z.object({ city: z.string(), tags: z.array(z.string()) }), response: z.object({ ok: z.boolean() }), execute: () => ({ ok: true }) }),
      streamingFunctionTool({ name: 'stream', description: 's', parameters, async *execute() {} }),
    ];
    for (const tool of tools) {
      const declaration = tool.declaration();
      expect(tool.declaration()).toBe(declaration);
      const stack: unknown[] = [declaration];
      let objects = 0;
      while (stack.length > 0) {
        const value = stack.pop();
        if (typeof value !== 'object' || value === null) continue;
        objects++;
        expect(Object.isFrozen(value)).toBe(true);
        stack.push(...Object.values(value));
      }
      expect(objects).toBeGreaterThan(3);
    }
  });

  it('the schemas given to functionTool stay the caller\'s: not frozen, not shared', () => {
    const mine = Type.Object({ city: Type.String() });
    const tool = functionTool({ name: 'mine', description: 'm', parameters: mine, execute: () => ({}) });
    expect(Object.isFrozen(mine)).toBe(false);
    expect(Object.isFrozen(mine.properties)).toBe(false);
    expect(tool.declaration().parametersJsonSchema).not.toBe(mine);
  });

  it('a plugin that changes step 1\'s declarations (replaces, pushes, empties a list, tries to edit a schema) changes nothing step 2 and the next run send', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'one', args: { city: 'Oslo' } }]), textResponse('first'), textResponse('second')]);
    const tools = [weather('one'), weather('two')];
    const original = tools.map((tool) => structuredClone(tool.declaration()));
    const refusedEdits: unknown[] = [];
    let step = 0;
    const plugin: Plugin = {
      name: 'meddler',
      beforeModelCallback: ({ request }) => {
        if (step++ > 0) return undefined;
        const list = request.config.tools![0]!.functionDeclarations!;
        const schema = list[0]!.parametersJsonSchema as { properties: Record<string, { type?: string }>; required: string[] };
        for (const edit of [
          () => (schema.properties.city!.type = 'number'),
          () => schema.required.push('days'),
          () => delete schema.properties.days,
          () => ((list[1] as { description?: string }).description = 'hijacked'),
        ])
          try {
            edit();
          } catch (error) {
            refusedEdits.push(error);
          }
        list[1] = { ...list[1]!, description: 'replaced for this step' };
        list.push({ name: 'ghost' });
        request.config.tools!.push({ functionDeclarations: [{ name: 'ghost2' }] });
        return undefined;
      },
    };
    const events = await turns(new LlmAgent({ name: 'agent', model, tools }), 2, [plugin]);
    expect(events.filter((event) => event.errorCode)).toEqual([]);
    expect(refusedEdits).toHaveLength(4);
    for (const error of refusedEdits) expect(error).toBeInstanceOf(TypeError);
    expect(model.requests).toHaveLength(3);
    expect(declarationsOf(model.requests[0]!).map((d) => d.name)).toEqual(['one', 'two', 'ghost', 'ghost2']);
    for (const request of model.requests.slice(1)) expect(declarationsOf(request)).toEqual(original);
    expect(tools.map((tool) => tool.declaration())).toEqual(original);
    // The call in step 1 was still checked against the real schema.
    const answer = events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionResponse);
    expect(answer!.functionResponse!.response).toEqual({ celsius: 21 });
  });

  it('two agents sharing a tool: one agent\'s step that rewrites its list leaves the other\'s request untouched', async () => {
    const shared = weather('shared');
    const sentByB: FunctionDeclaration[][] = [];
    const a = new LlmAgent({
      name: 'a',
      model: new ScriptedModel([textResponse('a1'), textResponse('a2')]),
      tools: [shared],
      beforeModelCallback: ({ request }) => {
        request.config.tools![0]!.functionDeclarations![0] = { name: 'shared', description: 'rewritten by a' };
        return undefined;
      },
    });
    const b = new LlmAgent({
      name: 'b',
      model: {
        model: 'b',
        async *generateContent(request: LlmRequest) {
          sentByB.push(declarationsOf(request));
          yield { content: { role: 'model', parts: [{ text: 'b' }] } };
        },
      },
      tools: [shared],
    });
    await turns(a, 1);
    await turns(b, 1);
    await turns(a, 1);
    await turns(b, 1);
    expect(sentByB).toEqual([[shared.declaration()], [shared.declaration()]]);
    expect(shared.declaration().description).toBe('Weather, shared.');
  });

  it('a BaseTool subclass that overrides processRequest is called every step; one that does not is packed like a function tool', async () => {
    const calls: number[] = [];
    class Custom extends BaseTool {
      declaration() {
        return { name: this.name, description: 'custom' };
      }
      async run() {
        return {};
      }
      override processRequest(ctx: Parameters<BaseTool['processRequest']>[0], request: LlmRequest) {
        calls.push(declarationsOf(request).length);
        return super.processRequest(ctx, request);
      }
    }
    class Plain extends BaseTool {
      private readonly declared = Object.freeze({ name: 'plain', description: 'plain' });
      declaration() {
        return this.declared;
      }
      async run() {
        return { plain: true };
      }
    }
    const model = new ScriptedModel([textResponse('1'), functionCallResponse([{ name: 'plain' }]), textResponse('2')]);
    const events = await turns(new LlmAgent({ name: 'agent', model, tools: [weather('w'), new Custom({ name: 'custom', description: 'c' }), new Plain({ name: 'plain', description: 'p' })] }), 2);
    expect(calls).toEqual([1, 1, 1]);
    for (const request of model.requests) {
      expect(declarationsOf(request).map((d) => d.name)).toEqual(['w', 'custom', 'plain']);
      expect(Object.keys(request.tools)).toEqual(['w', 'custom', 'plain']);
    }
    const answer = events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionResponse);
    expect(answer!.functionResponse!.response).toEqual({ plain: true });
  });
});
