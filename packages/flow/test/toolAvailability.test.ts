// #23 points 9 and 10, "one bad part never takes the agent down": a toolset that fails to list,
// hangs, returns junk or clashes by name, and a tool whose schema cannot be sent (10,000 levels
// deep, cyclic, `required: "x"`, a throwing declaration()) are left out of the run with a warning
// through the logger and an error event naming them; the other tools keep working and the model
// is called. Clashes known at construction are ConfigErrors there.
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  InMemoryRunner,
  LlmAgent,
  createUserContent,
  packTool,
  type Event,
  type FunctionDeclaration,
  type LlmRequest,
  type Logger,
  type RequestContext,
  type Tool,
  type Toolset,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool } from './support.js';

function capturingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (message) => warnings.push(message), error: (message) => warnings.push(`error: ${message}`) };
}

async function run(agent: LlmAgent, logger: Logger, text = 'go'): Promise<Event[]> {
  const runner = new InMemoryRunner({ agent, appName: 'app', logger });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent(text) })) events.push(event);
  return events;
}

const declaredNames = (request: Pick<LlmRequest, 'config'>) => (request.config.tools ?? []).flatMap((entry) => entry.functionDeclarations ?? []).map((d) => d.name);
const errors = (events: Event[]) => events.filter((event) => event.errorCode).map((event) => [event.errorCode, event.errorMessage]);

function toolset(name: string, tools: () => Promise<unknown>): Toolset {
  return { name, tools: tools as () => Promise<Tool[]> };
}

/** A tool whose declaration carries `schema` as its parameters. */
function schemaTool(name: string, schema: unknown): Tool {
  return rawTool(name, () => ({}), {
    declaration: () => ({ name, description: `the ${name} tool`, parametersJsonSchema: schema }) as FunctionDeclaration,
  });
}

/** `{type: object, properties: {a: {type: object, properties: {a: …}}}}`, `levels` objects deep, built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('#23 point 9: a toolset that fails to list is left out; the rest run', () => {
  it('a throwing toolset is left out with a warning and an error event; the good tool is declared, called and answers', async () => {
    const logger = capturingLogger();
    const model = new ScriptedModel([functionCallResponse([{ name: 'local', args: {} }]), textResponse('done')]);
    const agent = new LlmAgent({
      name: 'a',
      model,
      tools: [rawTool('local', () => ({ ok: true }))],
      toolsets: [toolset('mcp', async () => Promise.reject(new Error('connection refused'))), toolset('other', async () => [rawTool('other_tool', () => ({}))])],
    });
    const events = await run(agent, logger);
    expect(errors(events)).toEqual([['TOOLSET_UNAVAILABLE', 'Toolset "mcp" is left out: it failed to list its tools: connection refused']]);
    expect(logger.warnings).toEqual(['adkit: agent "a": Toolset "mcp" is left out: it failed to list its tools: connection refused']);
    expect(model.requests).toHaveLength(2);
    for (const request of model.requests) expect(declaredNames(request)).toEqual(['local', 'other_tool']);
    const response = events.find((event) => event.content?.parts?.some((part) => part.functionResponse));
    expect(response!.content!.parts![0]!.functionResponse!.response).toEqual({ ok: true });
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('done');
  });

  it('a toolset that never answers is left out after toolsetTimeoutMs; the model is called', async () => {
    const logger = capturingLogger();
    const model = new ScriptedModel([textResponse('still here')]);
    const agent = new LlmAgent({
      name: 'a',
      model,
      toolsetTimeoutMs: 50,
      tools: [rawTool('local', () => ({}))],
      toolsets: [toolset('stuck', () => new Promise(() => {}))],
    });
    const events = await run(agent, logger);
    expect(errors(events)).toEqual([['TOOLSET_UNAVAILABLE', 'Toolset "stuck" is left out: it failed to list its tools: no answer within 50 ms (the agent\'s toolsetTimeoutMs)']]);
    expect(declaredNames(model.requests[0]!)).toEqual(['local']);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('still here');
  });

  it('a toolset that returns junk (not a list, an entry without a name, a tool the flow cannot call) is left out', async () => {
    const logger = capturingLogger();
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new LlmAgent({
      name: 'a',
      model,
      toolsets: [
        toolset('nothing', async () => undefined),
        toolset('nameless', async () => [{ description: 'x' }]),
        toolset('inert', async () => [{ name: 'inert_tool', description: 'does nothing' }]),
        toolset('good', async () => [rawTool('good_tool', () => ({}))]),
      ],
    });
    const events = await run(agent, logger);
    expect(errors(events)).toEqual([
      ['TOOLSET_UNAVAILABLE', 'Toolset "nothing" is left out: it failed to list its tools: tools() returned undefined, not an array of tools'],
      ['TOOLSET_UNAVAILABLE', 'Toolset "nameless" is left out: it failed to list its tools: entry 0 is not a tool (it has no name)'],
      ['TOOLSET_UNAVAILABLE', 'Toolset "inert" is left out: it failed to list its tools: tool "inert_tool" has no declaration()/run(), runStream() or processRequest()'],
    ]);
    expect(declaredNames(model.requests[0]!)).toEqual(['good_tool']);
  });

  it('toolsets are listed at once (overlap), and a failure is reported once per run, not once per step', async () => {
    let open = 0;
    let overlap = 0;
    const slow = (name: string, fail: boolean) =>
      toolset(name, async () => {
        open++;
        overlap = Math.max(overlap, open);
        await new Promise((resolve) => setTimeout(resolve, 20));
        open--;
        if (fail) throw new Error('down');
        return [rawTool(`${name}_tool`, () => ({}))];
      });
    const logger = capturingLogger();
    const model = new ScriptedModel([functionCallResponse([{ name: 'b_tool' }]), functionCallResponse([{ name: 'b_tool' }]), textResponse('done')]);
    const events = await run(new LlmAgent({ name: 'a', model, toolsets: [slow('a', true), slow('b', false)] }), logger);
    expect(overlap).toBe(2);
    expect(model.requests).toHaveLength(3);
    expect(errors(events)).toEqual([['TOOLSET_UNAVAILABLE', 'Toolset "a" is left out: it failed to list its tools: down']]);
    expect(logger.warnings).toHaveLength(1);
  });

  it('a toolset whose tool clashes with the agent\'s, another toolset\'s or transfer_to_agent is left out; the first owner keeps the name', async () => {
    const logger = capturingLogger();
    const model = new ScriptedModel([functionCallResponse([{ name: 'search' }]), textResponse('done')]);
    const helper = new LlmAgent({ name: 'helper', description: 'helps' });
    const agent = new LlmAgent({
      name: 'a',
      model,
      subAgents: [helper],
      tools: [rawTool('search', () => ({ from: 'agent' }))],
      toolsets: [
        toolset('web', async () => [rawTool('fetch', () => ({})), rawTool('search', () => ({ from: 'web' }))]),
        toolset('files', async () => [rawTool('fetch', () => ({}))]),
        toolset('sneaky', async () => [rawTool('transfer_to_agent', () => ({}))]),
        toolset('twice', async () => [rawTool('dup', () => ({})), rawTool('dup', () => ({}))]),
        toolset('fine', async () => [rawTool('fine_tool', () => ({}))]),
      ],
    });
    const events = await run(agent, logger);
    expect(errors(events)).toEqual([
      ['TOOL_NAME_CLASH', 'Toolset "web" is left out: its tool "search" clashes with a tool of agent "a"; rename one, or give the toolset a prefix.'],
      ['TOOL_NAME_CLASH', 'Toolset "sneaky" is left out: its tool "transfer_to_agent" clashes with a tool of the flow; rename one, or give the toolset a prefix.'],
      ['TOOL_NAME_CLASH', 'Toolset "twice" is left out: its tool "dup" clashes with a tool of the same toolset; rename one, or give the toolset a prefix.'],
    ]);
    expect(logger.warnings).toHaveLength(3);
    expect(declaredNames(model.requests[0]!)).toEqual(['transfer_to_agent', 'search', 'fetch', 'fine_tool']);
    const response = events.find((event) => event.content?.parts?.some((part) => part.functionResponse));
    expect(response!.content!.parts![0]!.functionResponse!.response).toEqual({ from: 'agent' });
  });

  it('an agent tool named transfer_to_agent is left out when only the parent makes transfer possible', async () => {
    const logger = capturingLogger();
    const model = new ScriptedModel([textResponse('ok')]);
    const child = new LlmAgent({ name: 'child', description: 'a child', model, tools: [rawTool('transfer_to_agent', () => ({})), rawTool('keep', () => ({}))] });
    const parent = new LlmAgent({ name: 'parent', model: new ScriptedModel([functionCallResponse([{ name: 'transfer_to_agent', args: { agent_name: 'child' } }])]), subAgents: [child] });
    const events = await run(parent, logger);
    expect(errors(events)).toEqual([
      ['TOOL_NAME_CLASH', 'Tool "transfer_to_agent" of agent "child" is left out: the flow uses that name this run; rename the tool.'],
    ]);
    expect(declaredNames(model.requests[0]!)).toEqual(['transfer_to_agent', 'keep']);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('ok');
  });

  it('a clash known at construction is a ConfigError: two tools, a tool and a single-turn sub-agent, transfer_to_agent, set_model_response', () => {
    const t = (name: string) => rawTool(name, () => ({}));
    expect(() => new LlmAgent({ name: 'a', tools: [t('x'), t('x')] })).toThrow(
      new ConfigError('LlmAgent "a": two tools are named "x" (a tool or a single-turn sub-agent); rename one, since the model could only ever call one of them.'),
    );
    const worker = new LlmAgent({ name: 'worker', description: 'works', mode: 'single_turn' });
    expect(() => new LlmAgent({ name: 'b', tools: [t('worker')], subAgents: [worker] })).toThrow(ConfigError);
    expect(() => new LlmAgent({ name: 'c', tools: [t('transfer_to_agent')], subAgents: [new LlmAgent({ name: 'peer' })] })).toThrow(
      new ConfigError('LlmAgent "c": a tool is named "transfer_to_agent", which the flow declares itself for handing over to the sub-agents; rename the tool.'),
    );
    expect(() => new LlmAgent({ name: 'd', tools: [t('set_model_response')], outputSchema: Type.Object({ x: Type.String() }) })).toThrow(
      new ConfigError('LlmAgent "d": a tool is named "set_model_response", which the flow declares itself for the outputSchema answer; rename the tool.'),
    );
    // Without sub-agents the name is free.
    expect(() => new LlmAgent({ name: 'e', tools: [t('transfer_to_agent')] })).not.toThrow();
    expect(() => new LlmAgent({ name: 'f', toolsetTimeoutMs: 0 })).toThrow(
      new ConfigError('LlmAgent "f": toolsetTimeoutMs must be a positive number of milliseconds; leave it out for 60000.'),
    );
  });
});

describe('#23 point 10: a tool schema that cannot be sent refuses that tool, naming it', () => {
  it('10,000 levels deep, cyclic, required: "x", a bigint, a throwing declaration(): each refused before the model sees the request; the good tool goes out', async () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    const logger = capturingLogger();
    const model = new ScriptedModel([functionCallResponse([{ name: 'deep' }, { name: 'good' }]), textResponse('done')]);
    const agent = new LlmAgent({
      name: 'a',
      model,
      tools: [
        schemaTool('deep', nested(10_000)),
        schemaTool('loop', cyclic),
        schemaTool('bad_required', { type: 'object', properties: { x: { type: 'string' } }, required: 'x' }),
        schemaTool('big', { type: 'object', properties: { n: { type: 'integer', maximum: 10n } } }),
        rawTool('throws', () => ({}), {
          declaration: () => {
            throw new Error('schema generator crashed');
          },
        }),
        rawTool('good', () => ({ fine: true })),
      ],
    });
    const events = await run(agent, logger);
    const refused = [
      ['TOOL_REFUSED', 'Tool "deep" is left out: its parametersJsonSchema nests deeper than 100 levels; flatten it, or use $defs and $ref.'],
      ['TOOL_REFUSED', 'Tool "loop" is left out: its parametersJsonSchema refers to itself (a cycle at (root).properties.self), which JSON cannot carry; use $defs and $ref for recursive types.'],
      ['TOOL_REFUSED', 'Tool "bad_required" is left out: its parametersJsonSchema is invalid: (root).required must be a list of property names, got the string "x".'],
      ['TOOL_REFUSED', 'Tool "big" is left out: its parametersJsonSchema is not JSON: (root).properties.n.maximum is a bigint.'],
      ['TOOL_REFUSED', 'Tool "throws" is left out: its declaration() failed: schema generator crashed.'],
    ];
    // Reported once, in the first step, though both steps leave them out.
    expect(errors(events)).toEqual(refused);
    expect(logger.warnings).toEqual(refused.map(([, message]) => `adkit: agent "a": ${message}`));
    expect(model.requests).toHaveLength(2);
    for (const request of model.requests) {
      expect(declaredNames(request)).toEqual(['good']);
      expect(Object.keys(request.tools)).toEqual(['good']);
      expect(() => JSON.stringify(request.config)).not.toThrow();
    }
    // A call to a refused tool is an unknown tool the model hears about; the good one runs.
    const responses = events.find((event) => event.content?.parts?.some((part) => part.functionResponse))!.content!.parts!;
    expect(responses[0]!.functionResponse!.response!.error).toMatch(/^tool 'deep' not found\./);
    expect(responses[1]!.functionResponse!.response).toEqual({ fine: true });
  });

  it('a declaration a request processor adds itself is checked too, and a shared subschema is not a cycle', async () => {
    const shared = { type: 'string', minLength: 1 };
    const processor: Tool & { processRequest(ctx: RequestContext, request: LlmRequest): Promise<void> } = {
      name: 'packer',
      description: 'packs two tools',
      async processRequest(_ctx, request) {
        packTool(request, schemaTool('packed_deep', nested(200)) as Parameters<typeof packTool>[1]);
        packTool(request, schemaTool('packed_shared', { type: 'object', properties: { a: shared, b: shared } }) as Parameters<typeof packTool>[1]);
      },
    };
    const logger = capturingLogger();
    const model = new ScriptedModel([textResponse('ok')]);
    const events = await run(new LlmAgent({ name: 'a', model, tools: [processor] }), logger);
    expect(errors(events)).toEqual([
      ['TOOL_REFUSED', 'Tool "packed_deep" is left out: its parametersJsonSchema nests deeper than 100 levels; flatten it, or use $defs and $ref.'],
    ]);
    expect(declaredNames(model.requests[0]!)).toEqual(['packed_shared']);
    expect(Object.keys(model.requests[0]!.tools)).toEqual(['packed_shared']);
  });

  it('a schema at the depth limit and an ordinary TypeBox schema pass unchanged', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const typebox = Type.Object({ city: Type.String(), days: Type.Optional(Type.Integer({ minimum: 1 })) });
    const events = await run(new LlmAgent({ name: 'a', model, tools: [schemaTool('edge', nested(49)), schemaTool('tb', typebox)] }), capturingLogger());
    expect(errors(events)).toEqual([]);
    expect(declaredNames(model.requests[0]!)).toEqual(['edge', 'tb']);
    const declarations = model.requests[0]!.config.tools![0]!.functionDeclarations!;
    expect(declarations[1]!.parametersJsonSchema).toEqual(typebox);
  });
});

describe('#23 point 9 inside a sub-agent call', () => {
  it('a single-turn sub-agent whose toolset fails still answers its parent; the warning reaches the parent\'s logger', async () => {
    const logger = capturingLogger();
    const worker = new LlmAgent({
      name: 'worker',
      description: 'does the work',
      mode: 'single_turn',
      model: new ScriptedModel([textResponse('worked without it')]),
      toolsets: [toolset('flaky', async () => Promise.reject(new Error('down')))],
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'worker', args: { request: 'go' } }]), textResponse('done')]);
    const events = await run(new LlmAgent({ name: 'boss', model, subAgents: [worker] }), logger);
    const response = events.find((event) => event.content?.parts?.some((part) => part.functionResponse))!.content!.parts![0]!.functionResponse!.response;
    expect(response).toEqual({ result: 'worked without it' });
    expect(logger.warnings).toEqual(['adkit: agent "worker": Toolset "flaky" is left out: it failed to list its tools: down']);
  });
});
