// Agents and request building: FL-1 processors (instructions, identity, output schema), FL-2
// tool resolution, FL-3/FL-4 request processing, workflow agents and outputKey. Bad input tried:
// invalid and reserved agent names, a model that is a string, zero concurrency, a non-tool in
// tools, a sub-agent with two parents, missing template keys, failing toolsets and processors,
// duplicate tool names, answers that do not match the output schema, transfer to an unknown agent.
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  InMemoryRunner,
  LlmAgent,
  LoopAgent,
  SequentialAgent,
  appendInstructions,
  createLlmRequest,
  createUserContent,
  getFunctionResponses,
  packTool,
  type Event,
  type LlmRequest,
  type Tool,
  type RequestContext,
  type Toolset,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool, runOnce } from './support.js';

const systemText = (request: { config: { systemInstruction?: { parts?: { text?: string }[] } } }) =>
  request.config.systemInstruction?.parts?.map((p) => p.text).join('') ?? '';

describe('LlmAgent', () => {
  it('construction errors name the fix', () => {
    expect(() => new LlmAgent({ name: 'my-agent' })).toThrow(ConfigError);
    expect(() => new LlmAgent({ name: 'my-agent' })).toThrow(
      'Agent name "my-agent" is not an identifier; use letters, digits and underscores, starting with a letter or underscore (e.g. "weather_agent").',
    );
    expect(() => new LlmAgent({ name: 'user' })).toThrow('Agent name "user" is reserved');
    expect(() => new LlmAgent({ name: 'a', model: 'gpt-4o' as never })).toThrow(
      'LlmAgent "a": model must be a Model object such as openai(\'gpt-4.1-mini\') or gemini(\'gemini-2.5-flash\'), got string.',
    );
    expect(() => new LlmAgent({ name: 'a', maxToolConcurrency: 0 })).toThrow('maxToolConcurrency must be a positive integer, got 0.');
    expect(() => new LlmAgent({ name: 'a', tools: [{} as Tool] })).toThrow('LlmAgent "a": tools[0] is not a tool (it has no name).');
    expect(() => new LlmAgent({ name: 'a', outputSchema: Type.String({ pattern: '(' }) })).toThrow(
      'LlmAgent "a": outputSchema does not compile: Invalid regular expression: /(/u: Unterminated group',
    );
    const child = new LlmAgent({ name: 'child' });
    new SequentialAgent({ name: 'p1', subAgents: [child] });
    expect(() => new SequentialAgent({ name: 'p2', subAgents: [child] })).toThrow('Agent "child" already has parent "p1"');
  });

  it('FL-1: instruction templating from state, {key?} optional, then the identity line', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new LlmAgent({
      name: 'greeter',
      description: 'Greets people.',
      model,
      instruction: 'Greet {user:name} in {lang}. Mood: {mood?}. JSON stays: {"a": 1} and {not a key}.',
    });
    const runner = new InMemoryRunner({ agent, appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's', state: { 'user:name': 'Ada', lang: 'French' } });
    await runOnce(agent, 'hi', { runner, sessionId: 's' });
    expect(systemText(model.requests[0]!)).toBe(
      'Greet Ada in French. Mood: . JSON stays: {"a": 1} and {not a key}.\n\nYou are an agent. Your internal name is "greeter". The description about you is "Greets people.".',
    );
  });

  it('FL-1: a missing template key ends the run with an error event naming the fix', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new LlmAgent({ name: 'a', model, instruction: 'Hello {name}' });
    const { events } = await runOnce(agent, 'hi');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      errorCode: 'REQUEST_ERROR',
      errorMessage: 'Context variable not found: `name`. Set it in the session state, or write `{name?}` to make it optional.',
    });
    expect(model.requests).toHaveLength(0);
  });

  it('an instruction provider gets a readonly context and is used as is', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new LlmAgent({ name: 'a', model, instruction: (ctx) => `Session {x} for ${ctx.userId}` });
    await runOnce(agent, 'hi');
    expect(systemText(model.requests[0]!)).toMatch(/^Session \{x\} for u\n\n/);
  });

  it('FL-2: tools are the agent tools then each toolset\'s, resolved once per run; declarations in that order (PK-4)', async () => {
    let listed = 0;
    const toolset: Toolset = {
      name: 'remote',
      async tools() {
        listed++;
        return [rawTool('remote_a', () => ({})), rawTool('remote_b', () => ({}))];
      },
    };
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'remote_b' }]),
      functionCallResponse([{ name: 'local' }]),
      textResponse('done'),
    ]);
    const agent = new LlmAgent({ name: 'a', model, tools: [rawTool('local', () => ({}))], toolsets: [toolset] });
    await runOnce(agent, 'go');
    expect(listed).toBe(1);
    expect(model.requests).toHaveLength(3);
    for (const request of model.requests) {
      expect(request.config.tools).toEqual([
        {
          functionDeclarations: ['local', 'remote_a', 'remote_b'].map((name) => ({
            name,
            description: `the ${name} tool`,
            parametersJsonSchema: { type: 'object' },
          })),
        },
      ]);
      expect(Object.keys(request.tools)).toEqual(['local', 'remote_a', 'remote_b']);
    }
  });

  it('FL-2 (#23 point 9): a toolset error leaves that toolset out with an error event naming it; the model is still called', async () => {
    const broken: Toolset = {
      name: 'mcp',
      async tools() {
        throw new Error('connection refused');
      },
    };
    const model = new ScriptedModel([textResponse('fine')]);
    const agent = new LlmAgent({ name: 'a', model, toolsets: [broken] });
    const warnings: string[] = [];
    const runner = new InMemoryRunner({ agent, appName: 'test', logger: { warn: (m) => warnings.push(m), error: (m) => warnings.push(m) } });
    const { events } = await runOnce(agent, 'go', { runner });
    expect(warnings).toEqual(['adkit: agent "a": Toolset "mcp" is left out: it failed to list its tools: connection refused']);
    expect(events[0]).toMatchObject({
      errorCode: 'TOOLSET_UNAVAILABLE',
      errorMessage: 'Toolset "mcp" is left out: it failed to list its tools: connection refused',
    });
    expect(events[1]!.content!.parts![0]!.text).toBe('fine');
    expect(model.requests).toHaveLength(1);
  });

  it('FL-3/FL-4: tool and toolset processors run every step; their state is saved with the step\'s model event (#9 point 9); duplicates fail the step', async () => {
    const calls: string[] = [];
    const processor = {
      name: 'shaper',
      description: 'adds an instruction',
      async processRequest(ctx: RequestContext, request: LlmRequest) {
        // A request context answers no call: no call id, no requestConfirmation.
        calls.push(`tool:${'functionCallId' in ctx || 'requestConfirmation' in ctx}`);
        ctx.state.set('steps', ((ctx.state.get('steps') as number | undefined) ?? 0) + 1);
        appendInstructions(request, ['Be brief.']);
      },
    };
    const toolset: Toolset & { processRequest(ctx: RequestContext, r: LlmRequest): Promise<void> } = {
      name: 'ts',
      tools: async () => [],
      async processRequest(_ctx, request) {
        calls.push('toolset');
        appendInstructions(request, ['Toolset note.']);
      },
    };
    const model = new ScriptedModel([functionCallResponse([{ name: 'echo' }]), textResponse('ok')]);
    const agent = new LlmAgent({ name: 'a', model, tools: [processor, rawTool('echo', () => ({}))], toolsets: [toolset] });
    const { events, runner, sessionId } = await runOnce(agent, 'go');
    expect(calls).toEqual(['tool:false', 'toolset', 'tool:false', 'toolset']);
    expect(systemText(model.requests[1]!)).toBe('You are an agent. Your internal name is "a".\n\nBe brief.\n\nToolset note.');
    // Each step's count rides on that step's model event, so the store has it.
    expect(events.filter((e) => 'steps' in e.actions.stateDelta).map((e) => e.actions.stateDelta.steps)).toEqual([1, 2]);
    const stored = await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId });
    expect(stored!.state.steps).toBe(2);

    // #23 point 9: a clash known at construction is a ConfigError there.
    expect(() => new LlmAgent({ name: 'b', model: new ScriptedModel([]), tools: [rawTool('x', () => ({})), rawTool('x', () => ({}))] })).toThrow(
      new ConfigError('LlmAgent "b": two tools are named "x" (a tool or a single-turn sub-agent); rename one, since the model could only ever call one of them.'),
    );
  });

  it('FL-3/FL-4: a processor that answers later is waited for, in order, before the tools after it and the model (#24: a step waits only when one does)', async () => {
    const slow = {
      name: 'slow',
      description: 'adds an instruction after a while',
      async processRequest(_ctx: RequestContext, request: LlmRequest) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        appendInstructions(request, ['First.']);
      },
    };
    const quick = {
      name: 'quick',
      description: 'adds an instruction at once',
      // A JS processor may hand back any value: only a thenable is waited for.
      processRequest: (_ctx: RequestContext, request: LlmRequest) => (appendInstructions(request, ['Second.']), true) as unknown as void,
    };
    const toolset = { name: 'ts', tools: async () => [], processRequest: async (_ctx: RequestContext, request: LlmRequest) => appendInstructions(request, ['Third.']) };
    const model = new ScriptedModel([textResponse('ok')]);
    await runOnce(new LlmAgent({ name: 'a', model, tools: [slow, quick], toolsets: [toolset] }), 'go');
    expect(systemText(model.requests[0]!)).toBe('You are an agent. Your internal name is "a".\n\nFirst.\n\nSecond.\n\nThird.');

    const failing = { name: 'failing', description: 'fails later', processRequest: () => new Promise<void>((_, reject) => setTimeout(() => reject(new Error('index unavailable')), 5)) };
    const refused = new ScriptedModel([textResponse('never')]);
    const { events } = await runOnce(new LlmAgent({ name: 'b', model: refused, tools: [failing, quick] }), 'go');
    expect(events.map((event) => [event.errorCode, event.errorMessage])).toEqual([['REQUEST_ERROR', 'index unavailable']]);
    expect(refused.requests).toHaveLength(0);
  });

  it('FL-4: a toolset processor error is wrapped with the toolset name', async () => {
    const toolset = {
      name: 'skills',
      tools: async () => [],
      processRequest: async () => {
        throw new Error('bad SKILL.md');
      },
    };
    const { events } = await runOnce(new LlmAgent({ name: 'a', model: new ScriptedModel([]), toolsets: [toolset] }), 'go');
    expect(events[0]!.errorMessage).toBe('process request by toolset "skills": bad SKILL.md');
  });

  it('generateContentConfig is deep-copied into each request; function tools there are refused', async () => {
    const config = { temperature: 0.2, labels: { team: 'x' } };
    const model = new ScriptedModel([textResponse('ok')]);
    await runOnce(new LlmAgent({ name: 'a', model, generateContentConfig: config }), 'go');
    expect(model.requests[0]!.config.temperature).toBe(0.2);
    expect(model.requests[0]!.config.labels).toEqual({ team: 'x' });
    expect(() => new LlmAgent({ name: 'a', generateContentConfig: { tools: [{ functionDeclarations: [] }] } })).toThrow(
      'declare function tools in `tools`',
    );
  });

  it('a model is inherited from the nearest LlmAgent ancestor; none at all is an error event', async () => {
    const model = new ScriptedModel([textResponse('from parent model')]);
    const child = new LlmAgent({ name: 'child' });
    const parent = new LlmAgent({ name: 'parent', model, subAgents: [child] });
    expect(child.canonicalModel).toBe(model);
    const runner = new InMemoryRunner({ agent: parent, autoCreateSession: true });
    const events: Event[] = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('hi') })) events.push(e);
    expect(events[0]!.content!.parts![0]!.text).toBe('from parent model');
    const { events: none } = await runOnce(new LlmAgent({ name: 'lonely' }), 'hi');
    expect(none[0]!.errorCode).toBe('NO_MODEL');
  });

  it('outputKey saves the final text to state', async () => {
    const model = new ScriptedModel([textResponse('Paris')]);
    const { runner, sessionId } = await runOnce(new LlmAgent({ name: 'a', model, outputKey: 'capital' }), 'capital of France?');
    const session = await runner.sessionService.getSession({ appName: 'test', userId: 'u', sessionId });
    expect(session!.state.capital).toBe('Paris');
  });

  it('outputSchema without tools: JSON response config; the parsed answer is saved; a mismatch is an error event', async () => {
    const schema = Type.Object({ city: Type.String(), population: Type.Integer() });
    const model = new ScriptedModel([textResponse('{"city":"Paris","population":2100000}'), textResponse('{"city":"Paris"}')]);
    const agent = new LlmAgent({ name: 'a', model, outputSchema: schema, outputKey: 'answer' });
    const { runner, sessionId } = await runOnce(agent, 'q');
    expect(model.requests[0]!.config.responseMimeType).toBe('application/json');
    expect(model.requests[0]!.config.responseJsonSchema).toEqual(JSON.parse(JSON.stringify(schema)));
    const session = await runner.sessionService.getSession({ appName: 'test', userId: 'u', sessionId });
    expect(session!.state.answer).toEqual({ city: 'Paris', population: 2100000 });
    const { events } = await runOnce(agent, 'again', { runner, sessionId });
    expect(events[0]!.errorCode).toBe('INVALID_OUTPUT');
    expect(events[0]!.errorMessage).toBe(
      'Agent "a" answered with output that does not match its outputSchema: population: is required',
    );
    expect(events[0]!.content!.parts![0]!.text).toBe('{"city":"Paris"}');
  });

  it('BT-9: outputSchema with tools adds set_model_response first; its answer becomes the final text event', async () => {
    const schema = Type.Object({ city: Type.String() });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'set_model_response', args: { city: 7 } }]),
      functionCallResponse([{ name: 'set_model_response', args: { city: 'Paris' } }]),
    ]);
    const agent = new LlmAgent({ name: 'a', model, outputSchema: schema, outputKey: 'answer', tools: [rawTool('lookup', () => ({}))] });
    const { events, runner, sessionId } = await runOnce(agent, 'q');
    const declarations = model.requests[0]!.config.tools![0]!.functionDeclarations!;
    expect(declarations.map((d) => d.name)).toEqual(['set_model_response', 'lookup']);
    expect(systemText(model.requests[0]!)).toContain('you MUST provide your final response using the set_model_response tool');
    expect(getFunctionResponses(events[1]!)[0]!.response!.error).toBe('invalid output schema: city: must be string');
    expect(events.at(-1)!.content).toEqual({ role: 'model', parts: [{ text: '{"city":"Paris"}' }] });
    const session = await runner.sessionService.getSession({ appName: 'test', userId: 'u', sessionId });
    expect(session!.state.answer).toEqual({ city: 'Paris' });
  });

  it('FL-5 step 6: transferToAgent runs the named agent; an unknown name is an error event', async () => {
    const helperModel = new ScriptedModel([textResponse('helper here')]);
    const helper = new LlmAgent({ name: 'helper', model: helperModel });
    const handoff = rawTool('handoff', (args, ctx) => ((ctx.actions.transferToAgent = args.to as string), {}));
    const mainModel = new ScriptedModel([functionCallResponse([{ name: 'handoff', args: { to: 'helper' } }])]);
    const main = new LlmAgent({ name: 'main', model: mainModel, tools: [handoff], subAgents: [helper] });
    const { events } = await runOnce(main, 'help');
    expect(events.map((e) => e.author)).toEqual(['main', 'main', 'helper']);
    expect(helperModel.requests[0]!.contents.at(-1)!.parts!.map((p) => p.text)).toEqual([
      'For context:',
      '[main] `handoff` tool returned result: {}',
    ]);

    const lost = new LlmAgent({
      name: 'main2',
      model: new ScriptedModel([functionCallResponse([{ name: 'handoff', args: { to: 'nobody' } }])]),
      tools: [handoff],
    });
    expect((await runOnce(lost, 'x')).events.at(-1)!.errorMessage).toBe(
      'Cannot transfer to agent "nobody": it is not a transfer target here. This agent may not transfer.',
    );
  });
});

describe('workflow agents', () => {
  it('SequentialAgent runs sub-agents in order; the second sees the first as context', async () => {
    const m1 = new ScriptedModel([textResponse('draft: hello')]);
    const m2 = new ScriptedModel([textResponse('final: HELLO')]);
    const seq = new SequentialAgent({
      name: 'pipeline',
      subAgents: [new LlmAgent({ name: 'writer', model: m1 }), new LlmAgent({ name: 'editor', model: m2 })],
    });
    const runner = new InMemoryRunner({ agent: seq, autoCreateSession: true });
    const events: Event[] = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('write') })) events.push(e);
    expect(events.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([
      ['writer', 'draft: hello'],
      ['editor', 'final: HELLO'],
    ]);
    expect(m2.requests[0]!.contents).toEqual([
      { role: 'user', parts: [{ text: 'write' }] },
      { role: 'user', parts: [{ text: 'For context:' }, { text: '[writer] said: draft: hello' }] },
    ]);
  });

  it('LoopAgent stops when a sub-agent escalates, else after maxIterations', async () => {
    const done = rawTool('done', (_a, ctx) => ((ctx.actions.escalate = true), (ctx.actions.skipSummarization = true), {}));
    const model = new ScriptedModel([textResponse('round 1'), textResponse('round 2'), functionCallResponse([{ name: 'done' }])]);
    const loop = new LoopAgent({ name: 'loop', subAgents: [new LlmAgent({ name: 'worker', model, tools: [done] })] });
    const runner = new InMemoryRunner({ agent: loop, autoCreateSession: true });
    const events: Event[] = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go') })) events.push(e);
    expect(events.map((e) => e.content?.parts?.[0]?.text ?? 'tool')).toEqual(['round 1', 'round 2', 'tool', 'tool']);
    expect(model.remaining).toBe(0);

    const bounded = new LoopAgent({
      name: 'bounded',
      maxIterations: 2,
      subAgents: [new LlmAgent({ name: 'w', model: new ScriptedModel([textResponse('a'), textResponse('b')]) })],
    });
    const r2 = new InMemoryRunner({ agent: bounded, autoCreateSession: true });
    const texts: string[] = [];
    for await (const e of r2.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go') }))
      texts.push(e.content!.parts![0]!.text!);
    expect(texts).toEqual(['a', 'b']);
    expect(() => new LoopAgent({ name: 'x', maxIterations: 0 })).toThrow('maxIterations must be a positive integer, got 0.');
  });
});

describe('packTool', () => {
  it('PK-1: registers, merges into the first function-declarations entry, refuses duplicates, keeps undeclared tools callable', async () => {
    const request = createLlmRequest({ config: { tools: [{ googleSearch: {} }, { functionDeclarations: [{ name: 'pre' }] }] } });
    packTool(request, rawTool('a', () => ({})));
    const hidden = { ...rawTool('hidden', () => ({})), declaration: () => undefined };
    packTool(request, hidden);
    expect(request.config.tools).toEqual([
      { googleSearch: {} },
      { functionDeclarations: [{ name: 'pre' }, { name: 'a', description: 'the a tool', parametersJsonSchema: { type: 'object' } }] },
    ]);
    expect(Object.keys(request.tools)).toEqual(['a', 'hidden']);
    expect(() => packTool(request, rawTool('a', () => ({})))).toThrow('duplicate tool: "a".');
    expect(Object.keys(request.tools)).toEqual(['a', 'hidden']);
    expect(JSON.stringify(request)).not.toContain('"tools":{');
    const empty = createLlmRequest();
    packTool(empty, rawTool('b', () => ({})));
    expect(empty.config.tools).toEqual([{ functionDeclarations: [{ name: 'b', description: 'the b tool', parametersJsonSchema: { type: 'object' } }] }]);
  });
});
