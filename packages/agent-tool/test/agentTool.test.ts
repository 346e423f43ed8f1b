// Spec section 6 (AT-1 … AT-7) through real runners and ScriptedModel, and what adkit adds:
// isolation per call, child progress events, artifact forwarding, single-turn sub-agents.
// Bad input tried: arguments that break the input schema (a wrong type, an unknown key, a missing
// `request`), an answer that is not JSON or breaks the output schema, a child that throws, ends
// with an error event, outlives its timeout, or is aborted with the parent's run.
import {
  LlmAgent,
  SequentialAgent,
  createUserContent,
  getFunctionCalls,
  getFunctionResponses,
  type Event,
} from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import { googleSearch } from '@adkit/gemini-tools';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { agentTool } from '../src/index.js';
import { complete, runnerFor, send } from './support.js';

const responseOf = (events: Event[], name: string) =>
  complete(events).flatMap(getFunctionResponses).find((response) => response.name === name)?.response;

describe('agentTool (AT-1 … AT-7)', () => {
  it('AT-1/AT-2: name, description and the {request} declaration; an inputSchema becomes the parameters', () => {
    const plain = agentTool(new LlmAgent({ name: 'summarizer', description: 'Summarises text.' }));
    expect([plain.name, plain.description, plain.isLongRunning]).toEqual(['summarizer', 'Summarises text.', undefined]);
    expect(plain.declaration()).toEqual({
      name: 'summarizer',
      description: 'Summarises text.',
      parametersJsonSchema: { type: 'object', properties: { request: { type: 'string' } }, required: ['request'] },
    });
    const schema = Type.Object({ city: Type.String(), days: Type.Integer() });
    const typed = agentTool(new LlmAgent({ name: 'planner', inputSchema: schema }));
    expect(JSON.parse(JSON.stringify(typed.declaration()!.parametersJsonSchema))).toEqual(JSON.parse(JSON.stringify(schema)));
    // A workflow agent declares its first sub-agent's schema.
    const flow = agentTool(new SequentialAgent({ name: 'pipeline', subAgents: [new LlmAgent({ name: 'first', inputSchema: schema })] }));
    expect(JSON.parse(JSON.stringify(flow.declaration()!.parametersJsonSchema))).toEqual(JSON.parse(JSON.stringify(schema)));
  });

  for (const skipSummarization of [false, true])
    it(`a summarizer as a tool, skipSummarization ${skipSummarization ? 'on (AT-7: the answer is shown, the parent model not called again)' : 'off (the parent model rephrases)'}`, async () => {
      const summaryModel = new ScriptedModel([textResponse('ADK agents call tools.')]);
      const summarizer = new LlmAgent({ name: 'summarizer', description: 'Summarises text.', model: summaryModel });
      const mainModel = new ScriptedModel([
        functionCallResponse([{ name: 'summarizer', args: { request: 'Summarise: a long text about agents and tools.' }, id: 's1' }]),
        textResponse('In short: ADK agents call tools.'),
      ]);
      const main = new LlmAgent({ name: 'main', model: mainModel, tools: [agentTool(summarizer, { skipSummarization })] });
      const events = complete(await send(runnerFor(main), 'Summarise this for me'));
      expect(summaryModel.requests[0]!.contents.at(-1)).toEqual({ role: 'user', parts: [{ text: 'Summarise: a long text about agents and tools.' }] });
      expect(responseOf(events, 'summarizer')).toEqual({ result: 'ADK agents call tools.' });
      if (skipSummarization) {
        expect(mainModel.requests).toHaveLength(1);
        expect(events.at(-1)!.actions.skipSummarization).toBe(true);
        expect(events.at(-1)!.content!.parts!.at(-1)).toEqual({ text: 'ADK agents call tools.' });
      } else {
        expect(mainModel.requests).toHaveLength(2);
        expect(events.at(-1)!.content!.parts![0]!.text).toBe('In short: ADK agents call tools.');
      }
      // Nothing of the child's own history reaches the parent's model.
      expect(JSON.stringify(mainModel.requests)).not.toContain('"author":"summarizer"');
      expect(events.map((e) => e.author).every((author) => author === 'main' || author === 'user')).toBe(true);
    });

  it("ADK Go's multi-tool composition: each agent's request carries only its own tools", async () => {
    const searchModel = new ScriptedModel([textResponse('Lisbon is sunny today.')], { model: 'gemini-2.5-flash' });
    const search = new LlmAgent({ name: 'search_agent', description: 'Searches the web.', model: searchModel, tools: [googleSearch] });
    const poemModel = new ScriptedModel([
      functionCallResponse([{ name: 'rhyme', args: { word: 'sun' }, id: 'r' }]),
      textResponse('The sun in Lisbon, bright and fun.'),
    ]);
    const rhyme = functionTool({ name: 'rhyme', description: 'A rhyme for a word.', parameters: Type.Object({ word: Type.String() }), execute: ({ word }) => ({ rhyme: `${word}/fun` }) });
    const poem = new LlmAgent({ name: 'poem_agent', description: 'Writes poems.', model: poemModel, tools: [rhyme] });
    const rootModel = new ScriptedModel([
      functionCallResponse([{ name: 'search_agent', args: { request: 'weather in Lisbon' }, id: 'a' }]),
      functionCallResponse([{ name: 'poem_agent', args: { request: 'a poem about the sunny weather in Lisbon' }, id: 'b' }]),
      textResponse('Here is your poem.'),
    ]);
    const root = new LlmAgent({ name: 'root', model: rootModel, tools: [agentTool(search), agentTool(poem)] });
    await send(runnerFor(root), 'Write a poem about the weather in Lisbon');
    const declared = (model: ScriptedModel) =>
      (model.requests[0]!.config.tools ?? []).flatMap((tool) => [
        ...(tool.functionDeclarations ?? []).map((d) => d.name),
        ...Object.keys(tool).filter((key) => key !== 'functionDeclarations'),
      ]);
    expect(declared(rootModel)).toEqual(['search_agent', 'poem_agent']);
    expect(declared(searchModel)).toEqual(['googleSearch']);
    expect(declared(poemModel)).toEqual(['rhyme']);
    expect(poemModel.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse!.response).toEqual({ rhyme: 'sun/fun' });
  });

  it('AT-4: each call is isolated — a second call never sees the first call\'s history; the parent\'s state is copied in without temp: and _adk keys', async () => {
    const childModel = new ScriptedModel([textResponse('first answer'), textResponse('second answer')]);
    const child = new LlmAgent({ name: 'helper', model: childModel, instruction: 'Tenant: {tenant}.' });
    const rootModel = new ScriptedModel([
      functionCallResponse([{ name: 'helper', args: { request: 'one' }, id: '1' }]),
      functionCallResponse([{ name: 'helper', args: { request: 'two' }, id: '2' }]),
      textResponse('done'),
    ]);
    const root = new LlmAgent({ name: 'root', model: rootModel, tools: [agentTool(child)] });
    const runner = runnerFor(root);
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's', state: { tenant: 'acme', _adk_internal: 1 } });
    await send(runner, { role: 'user', parts: [{ text: 'go' }] });
    expect(childModel.requests.map((r) => r.contents.map((c) => c.parts![0]!.text))).toEqual([['one'], ['two']]);
    expect(childModel.requests[0]!.config.systemInstruction).toMatchObject({ parts: [{ text: expect.stringContaining('Tenant: acme.') }] });
  });

  it('AT-3/AT-6: input and output schemas are validated; the parsed object is the result', async () => {
    const input = Type.Object({ city: Type.String(), days: Type.Integer({ minimum: 1 }) });
    const output = Type.Object({ plan: Type.String(), stops: Type.Array(Type.String()) });
    const childModel = new ScriptedModel([
      textResponse('{"plan":"3 days","stops":["Belém","Alfama"]}'),
      textResponse('not json'),
      textResponse('{"plan":3}'),
    ]);
    const planner = new LlmAgent({ name: 'planner', model: childModel, inputSchema: input, outputSchema: output });
    const rootModel = new ScriptedModel([
      functionCallResponse([
        { name: 'planner', args: { city: 'Lisbon', days: 3 }, id: 'ok' },
        { name: 'planner', args: { city: 'Lisbon', days: 'three' }, id: 'bad-type' },
        { name: 'planner', args: { city: 'Lisbon' }, id: 'missing' },
      ]),
      functionCallResponse([{ name: 'planner', args: { city: 'Porto', days: 1 }, id: 'not-json' }, { name: 'planner', args: { city: 'Faro', days: 2 }, id: 'wrong-shape' }]),
      textResponse('done'),
    ]);
    const root = new LlmAgent({ name: 'root', model: rootModel, tools: [agentTool(planner)], maxToolConcurrency: 1 });
    const events = complete(await send(runnerFor(root), 'plan'));
    const responses = Object.fromEntries(events.flatMap(getFunctionResponses).map((r) => [r.id, r.response]));
    expect(responses.ok).toEqual({ plan: '3 days', stops: ['Belém', 'Alfama'] });
    expect(responses['bad-type']).toEqual({ error: 'argument validation failed for agent planner: days: must be integer' });
    expect(String(responses.missing!.error)).toMatch(/^argument validation failed for agent planner: .*days/);
    expect(String(responses['not-json']!.error)).toMatch(/^output validation failed for sub-agent planner: the answer is not JSON/);
    expect(String(responses['wrong-shape']!.error)).toMatch(/^output validation failed for sub-agent planner: /);
    // The child got the arguments as JSON text.
    expect(childModel.requests[0]!.contents.at(-1)!.parts![0]!.text).toBe('{"city":"Lisbon","days":3}');
    expect(childModel.requests).toHaveLength(3);
  });

  it('AT-3: a missing request is an error; no text → {}', async () => {
    const child = new LlmAgent({ name: 'quiet', model: new ScriptedModel([{ content: { role: 'model', parts: [{ text: '' }] } }]) });
    const rootModel = new ScriptedModel([
      functionCallResponse([{ name: 'quiet', args: {}, id: 'a' }, { name: 'quiet', args: { request: 'x' }, id: 'b' }]),
      textResponse('ok'),
    ]);
    const events = complete(await send(runnerFor(new LlmAgent({ name: 'root', model: rootModel, tools: [agentTool(child)] })), 'go'));
    expect(events.flatMap(getFunctionResponses).map((r) => r.response)).toEqual([
      { error: "missing required argument 'request' for agent quiet" },
      {},
    ]);
  });

  it('AT-5: a child that throws, ends with an error event, times out, or is aborted with the parent gives an error (or stops)', async () => {
    const throwing = new LlmAgent({
      name: 'crashy',
      model: new ScriptedModel([functionCallResponse([{ name: 'boom', id: 'x' }]), textResponse('unreached')]),
      tools: [functionTool({ name: 'boom', description: 'b', parameters: Type.Object({}), execute: () => ({ ok: true }) })],
      beforeModelCallback: ({ request }) => {
        if (request.contents.length > 1) throw new Error('model backend down');
      },
    });
    const slow = new LlmAgent({
      name: 'slow',
      model: new ScriptedModel([async () => (await new Promise((r) => setTimeout(r, 500)), textResponse('late'))]),
    });
    const rootModel = new ScriptedModel([
      functionCallResponse([{ name: 'crashy', args: { request: 'go' }, id: 'c' }, { name: 'slow', args: { request: 'go' }, id: 's' }]),
      textResponse('handled'),
    ]);
    const root = new LlmAgent({ name: 'root', model: rootModel, tools: [agentTool(throwing), agentTool(slow, { timeoutMs: 100 })] });
    const started = Date.now();
    const events = complete(await send(runnerFor(root), 'go'));
    const responses = Object.fromEntries(events.flatMap(getFunctionResponses).map((r) => [r.id, r.response]));
    expect(String(responses.c!.error)).toMatch(/^error from sub-agent "crashy" \(code: "(MODEL_ERROR|FLOW_ERROR)", message: ".*model backend down/);
    expect(responses.s).toEqual({ error: 'Tool "slow" timed out after 100 ms.' });
    expect(Date.now() - started).toBeLessThan(450);

    // The parent's abort stops the child: its model sees the signal and no answer comes back.
    let childSignal: AbortSignal | undefined;
    const waiting = new LlmAgent({
      name: 'waiting',
      model: {
        model: 'm',
        async *generateContent(_req, opts) {
          childSignal = opts.signal;
          await new Promise((resolve) => setTimeout(resolve, 1000));
          yield textResponse('late');
        },
      },
    });
    const parent = new LlmAgent({ name: 'root', model: new ScriptedModel([functionCallResponse([{ name: 'waiting', args: { request: 'x' }, id: 'w' }])]), tools: [agentTool(waiting)] });
    const controller = new AbortController();
    const runner = runnerFor(parent);
    setTimeout(() => controller.abort(), 50);
    const seen: Event[] = [];
    for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go'), signal: controller.signal })) seen.push(event);
    expect(childSignal?.aborted).toBe(true);
    expect(complete(seen).flatMap(getFunctionResponses)).toEqual([]);
  });

  it("the child's events reach the parent's client as progress events tagged with the call id", async () => {
    const child = new LlmAgent({
      name: 'researcher',
      model: new ScriptedModel([functionCallResponse([{ name: 'lookup', args: { q: 'x' }, id: 'inner' }]), textResponse('found it')]),
      tools: [functionTool({ name: 'lookup', description: 'l', parameters: Type.Object({ q: Type.String() }), execute: () => ({ hit: 1 }) })],
    });
    const root = new LlmAgent({
      name: 'root',
      model: new ScriptedModel([functionCallResponse([{ name: 'researcher', args: { request: 'find x' }, id: 'outer' }]), textResponse('ok')]),
      tools: [agentTool(child)],
    });
    const runner = runnerFor(root);
    const events = await send(runner, 'go');
    const forwarded = events.filter((e) => e.partial && e.toolProgress?.event);
    expect(forwarded.every((e) => e.toolProgress!.functionCallId === 'outer' && e.toolProgress!.toolName === 'researcher')).toBe(true);
    expect(forwarded.map((e) => `${e.toolProgress!.event!.author}:${getFunctionCalls(e.toolProgress!.event!).map((c) => c.name).join(',') || e.toolProgress!.event!.content?.parts?.[0]?.text || 'response'}`)).toEqual([
      'researcher:lookup',
      'researcher:response',
      'researcher:found it',
    ]);
    // Progress is never stored.
    const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(session!.events.some((e) => e.toolProgress)).toBe(false);
  });

  it("artifacts the child saves reach the parent's artifact service, recorded on the parent's event; propagateState copies state back", async () => {
    const save = functionTool({
      name: 'save_report',
      description: 's',
      parameters: Type.Object({}),
      execute: async (_args, ctx) => {
        const version = await ctx.saveArtifact('report.txt', { text: 'Q3 is up.' });
        ctx.state.set('last_report', 'report.txt');
        return { version };
      },
    });
    for (const propagateState of [false, true]) {
      const child = new LlmAgent({ name: 'writer', model: new ScriptedModel([functionCallResponse([{ name: 'save_report', id: 'i' }]), textResponse('Saved.')]), tools: [save] });
      const root = new LlmAgent({
        name: 'root',
        model: new ScriptedModel([functionCallResponse([{ name: 'writer', args: { request: 'write it' }, id: 'w' }]), textResponse('ok')]),
        tools: [agentTool(child, { propagateState })],
      });
      const runner = runnerFor(root);
      const events = complete(await send(runner, 'go'));
      const responseEvent = events.find((e) => getFunctionResponses(e).some((r) => r.id === 'w'))!;
      expect(responseEvent.actions.artifactDelta).toEqual({ 'report.txt': 0 });
      const saved = await runner.artifactService.loadArtifact({ appName: 'app', userId: 'u', sessionId: 's', filename: 'report.txt' });
      expect(saved).toEqual({ text: 'Q3 is up.' });
      expect(responseEvent.actions.stateDelta.last_report).toBe(propagateState ? 'report.txt' : undefined);
    }
  });

  it("single-turn sub-agents are installed on the parent as tools automatically and are never transfer targets", async () => {
    const translatorModel = new ScriptedModel([textResponse('Bom dia')]);
    const translator = new LlmAgent({ name: 'translator', description: 'Translates to Portuguese.', model: translatorModel, mode: 'single_turn' });
    const chatter = new LlmAgent({ name: 'chatter', description: 'Small talk.', model: new ScriptedModel([]) });
    const rootModel = new ScriptedModel([
      functionCallResponse([{ name: 'translator', args: { request: 'Good morning' }, id: 't' }]),
      textResponse('It is "Bom dia".'),
    ]);
    const root = new LlmAgent({ name: 'root', model: rootModel, subAgents: [translator, chatter] });
    const events = complete(await send(runnerFor(root), 'Translate good morning'));
    expect(responseOf(events, 'translator')).toEqual({ result: 'Bom dia' });
    const declarations = rootModel.requests[0]!.config.tools!.flatMap((t) => t.functionDeclarations ?? []);
    expect(declarations.map((d) => d.name)).toEqual(['transfer_to_agent', 'translator']);
    const transfer = declarations.find((d) => d.name === 'transfer_to_agent')!;
    expect((transfer.parametersJsonSchema as { properties: { agent_name: { enum: string[] } } }).properties.agent_name.enum).toEqual(['chatter']);
    // The single-turn agent runs without transfer tools of its own.
    expect(translatorModel.requests[0]!.config.tools).toBeUndefined();
  });
});
