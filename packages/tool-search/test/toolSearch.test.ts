// #30 point 3: tool search for large catalogs. The model is sent search_tools and the always-on
// tools; what a search finds is declared from the next step on, for the rest of the run (temp:
// state) or the session (session state, which survives a restart); ranking over names,
// descriptions and parameter names; hostile input (a 1 MB query, `__proto__` names, 10,000
// tools, a tool that disappears, a forged state value) never crashes a run.
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  InMemoryRunner,
  InMemorySessionService,
  LlmAgent,
  Runner,
  createUserContent,
  getFunctionResponses,
  type Event,
  type LlmRequest,
  type Logger,
  type RunnableTool,
  type Tool,
  type Toolset,
} from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { SEARCH_TOOLS, loadedToolsKey, toolSearch } from '../src/index.js';

const declared = (request: Pick<LlmRequest, 'config'>) =>
  (request.config.tools ?? []).flatMap((entry) => entry.functionDeclarations ?? []).map((d) => d.name);

function rawTool(name: string, description: string, parameters: Record<string, unknown> = {}): RunnableTool {
  return {
    name,
    description,
    declaration: () => ({ name, description, parametersJsonSchema: { type: 'object', properties: parameters } }),
    run: async () => ({ ran: name }),
  };
}

const createIssue = functionTool({
  name: 'create_issue',
  description: 'Opens a new issue in a repository.',
  parameters: Type.Object({ owner: Type.String(), repo: Type.String(), title: Type.String() }),
  execute: ({ title }) => ({ created: title }),
});
const catalog: Tool[] = [
  createIssue,
  rawTool('list_pull_requests', 'Lists the pull requests of a repository.', { owner: {}, repo: {}, state: {} }),
  rawTool('get_weather', 'The current weather in a city.', { city: {} }),
  rawTool('send_email', 'Sends an email message.', { to: {}, subject: {}, body: {} }),
  rawTool('get_me', 'Who the signed-in user is.'),
];
const github: Toolset = { name: 'github', tools: async () => catalog };

function quietLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) };
}

async function run(runner: Runner, text = 'go', sessionId = 's'): Promise<Event[]> {
  if (!(await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId })))
    await runner.sessionService.createSession({ appName: runner.appName, userId: 'u', sessionId });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId, newMessage: createUserContent(text) })) events.push(event);
  return events;
}

const responses = (events: Event[]) => events.flatMap((event) => getFunctionResponses(event)).map((r) => [r.name, r.response]);

describe('#30: toolSearch declares search_tools and the always-on tools; found tools from the next step on', () => {
  it('the first request has search_tools and get_me only; a search loads create_issue, which the next step declares and runs', async () => {
    const model = new ScriptedModel([
      functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'open an issue' } }]),
      functionCallResponse([{ name: 'create_issue', args: { owner: 'o', repo: 'r', title: 'Bug' } }]),
      textResponse('done'),
    ]);
    const agent = new LlmAgent({ name: 'root', model, tools: [toolSearch([github], { alwaysOn: ['get_me'] })] });
    const events = await run(new InMemoryRunner({ agent, appName: 'app' }));
    expect(model.requests.map(declared)).toEqual([
      ['search_tools', 'get_me'],
      ['search_tools', 'create_issue', 'get_me'],
      ['search_tools', 'create_issue', 'get_me'],
    ]);
    const [search, created] = responses(events);
    expect(search![1]).toMatchObject({ tools: [{ name: 'create_issue', description: 'Opens a new issue in a repository.' }], note: 'These tools can be called from your next step on.' });
    expect(created).toEqual(['create_issue', { created: 'Bug' }]);
  });

  it('a catalog tool called before it was found gets the unknown-tool error (it is not declared on this step)', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'send_email', args: {} }]), textResponse('sorry')]);
    const agent = new LlmAgent({ name: 'root', model, tools: [toolSearch([github])] });
    const [[, response]] = responses(await run(new InMemoryRunner({ agent, appName: 'app' }))) as [[string, { error: string }]];
    expect(response.error).toMatch(/^tool 'send_email' not found\.\nAvailable tools: search_tools\n/);
  });

  it('ranks over parameter names too: "city" finds forecast, whose name and description say nothing of cities', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'city', limit: 1 } }]), textResponse('ok')]);
    const agent = new LlmAgent({ name: 'root', model, tools: [toolSearch([rawTool('forecast', 'Tomorrow\'s forecast.', { city: {} }), ...catalog.filter((tool) => tool.name !== 'get_weather')])] });
    const [[, response]] = responses(await run(new InMemoryRunner({ agent, appName: 'app' }))) as [[string, { tools: { name: string }[] }]];
    expect(response.tools.map((t) => t.name)).toEqual(['forecast']);
  });

  it('run scope: found tools are gone in the next run; the key is temp: and never saved', async () => {
    const search = toolSearch([github]);
    expect(search.stateKey).toBe('temp:adkit.toolSearch.tool_search.loaded');
    const model = new ScriptedModel([
      functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'send email' } }]),
      textResponse('found it'),
      textResponse('second run'),
    ]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'root', model, tools: [search] }), appName: 'app' });
    await run(runner);
    await run(runner);
    expect(model.requests.map(declared)).toEqual([['search_tools'], ['search_tools', 'send_email'], ['search_tools']]);
    const stored = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(Object.keys(stored!.state)).toEqual([]);
  });

  it('session scope: a new runner and a new toolSearch on the same store (a restart) declare what the session found', async () => {
    const sessionService = new InMemorySessionService();
    const first = new ScriptedModel([functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'send email' } }]), textResponse('found it')]);
    const agentOf = (model: ScriptedModel) => new LlmAgent({ name: 'root', model, tools: [toolSearch([github], { scope: 'session' })] });
    await run(new Runner({ agent: agentOf(first), appName: 'app', sessionService }));
    const stored = await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(stored!.state[loadedToolsKey('tool_search', 'session')]).toEqual(['send_email']);

    const second = new ScriptedModel([functionCallResponse([{ name: 'send_email', args: {} }]), textResponse('sent')]);
    const events = await run(new Runner({ agent: agentOf(second), appName: 'app', sessionService }));
    expect(declared(second.requests[0]!)).toEqual(['search_tools', 'send_email']);
    expect(responses(events)).toEqual([['send_email', { ran: 'send_email' }]]);
  });

  it('maxLoaded: a later search swaps the oldest found tool out', async () => {
    const model = new ScriptedModel([
      functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'weather', limit: 1 } }]),
      functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'email', limit: 1 } }]),
      functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'pull requests', limit: 1 } }]),
      textResponse('ok'),
    ]);
    const agent = new LlmAgent({ name: 'root', model, tools: [toolSearch([github], { maxLoaded: 2 })] });
    await run(new InMemoryRunner({ agent, appName: 'app' }));
    expect(model.requests.map(declared)).toEqual([
      ['search_tools'],
      ['search_tools', 'get_weather'],
      ['search_tools', 'get_weather', 'send_email'],
      ['search_tools', 'list_pull_requests', 'send_email'],
    ]);
  });

  it('no match: an empty list and a note; nothing is loaded', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'zzzz qqqq' } }]), textResponse('ok')]);
    const agent = new LlmAgent({ name: 'root', model, tools: [toolSearch([github])] });
    const events = await run(new InMemoryRunner({ agent, appName: 'app' }));
    expect(responses(events)).toEqual([[SEARCH_TOOLS, { tools: [], note: 'No tool matches "zzzz qqqq". Try other words, or answer without a tool.' }]]);
    expect(declared(model.requests[1]!)).toEqual(['search_tools']);
  });

  it('bad options are ConfigErrors that name the fix', () => {
    expect(() => toolSearch([github], { maxLoaded: 0 })).toThrow(ConfigError);
    expect(() => toolSearch([github], { maxLoaded: 0 })).toThrow('toolSearch: maxLoaded must be a positive whole number, got 0; leave it out for 20.');
    expect(() => toolSearch([github], { scope: 'forever' as 'run' })).toThrow(`toolSearch: scope must be 'run' or 'session', got "forever".`);
    expect(() => toolSearch([null as unknown as Tool])).toThrow('toolSearch: sources[0] is not a tool or toolset (it has no name).');
  });
});

describe('#30: hostile input to tool search', () => {
  it('a 1 MB query is refused by the schema with a short error; nothing is loaded and the run goes on', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'x'.repeat(1_000_000) } }]), textResponse('ok')]);
    const agent = new LlmAgent({ name: 'root', model, tools: [toolSearch([github])] });
    const events = await run(new InMemoryRunner({ agent, appName: 'app' }));
    const [[, response]] = responses(events) as [[string, { error: string }]];
    expect(response.error).toContain('query');
    expect(JSON.stringify(response).length).toBeLessThan(2000);
    expect(declared(model.requests[1]!)).toEqual(['search_tools']);
  });

  it('tools named __proto__ and constructor are found, loaded and called like any other; state stays a plain list', async () => {
    const proto = rawTool('__proto__', 'Prototype pollution probe.', { __proto__: {} } as Record<string, unknown>);
    const ctor = rawTool('constructor', 'Another probe.');
    const model = new ScriptedModel([
      functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'prototype probe' } }]),
      functionCallResponse([{ name: '__proto__', args: {} }]),
      textResponse('ok'),
    ]);
    const sessionService = new InMemorySessionService();
    const agent = new LlmAgent({ name: 'root', model, tools: [toolSearch([proto, ctor, ...catalog], { scope: 'session' })] });
    const events = await run(new Runner({ agent, appName: 'app', sessionService }));
    expect(declared(model.requests[1]!)).toEqual(['search_tools', '__proto__', 'constructor']);
    expect(responses(events)[1]).toEqual(['__proto__', { ran: '__proto__' }]);
    const stored = await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(stored!.state[loadedToolsKey('tool_search', 'session')]).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).ran).toBeUndefined();
  });

  it('10,000 tools: one search finds the right one; the first request declares only search_tools', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => rawTool(`op_${i}`, `Operation number ${i} on widgets.`, { [`field${i}`]: {} }));
    many[7_777] = rawTool('archive_invoice', 'Archives a paid invoice.', { invoice_id: {} });
    const model = new ScriptedModel([functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'archive invoice', limit: 3 } }]), textResponse('ok')]);
    const agent = new LlmAgent({ name: 'root', model, tools: [toolSearch([{ name: 'big', tools: async () => many }])] });
    const events = await run(new InMemoryRunner({ agent, appName: 'app' }));
    expect(declared(model.requests[0]!)).toEqual(['search_tools']);
    const [[, response]] = responses(events) as [[string, { tools: { name: string }[] }]];
    expect(response.tools[0]!.name).toBe('archive_invoice');
    expect(declared(model.requests[1]!)).toContain('archive_invoice');
  });

  it('a found tool that disappears before the next run is not declared there, and a call to it is the unknown-tool error', async () => {
    const sessionService = new InMemorySessionService();
    let tools = catalog;
    const shifting: Toolset = { name: 'shifting', tools: async () => tools };
    const first = new ScriptedModel([functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'email' } }]), textResponse('found')]);
    const agentOf = (model: ScriptedModel) => new LlmAgent({ name: 'root', model, tools: [toolSearch([shifting], { scope: 'session' })] });
    await run(new Runner({ agent: agentOf(first), appName: 'app', sessionService }));
    tools = catalog.filter((tool) => tool.name !== 'send_email');
    const second = new ScriptedModel([
      functionCallResponse([{ name: 'send_email', args: {} }]),
      functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'email weather' } }]),
      textResponse('gone'),
    ]);
    const events = await run(new Runner({ agent: agentOf(second), appName: 'app', sessionService }));
    expect(declared(second.requests[0]!)).toEqual(['search_tools']);
    const [[, gone], [, searched]] = responses(events) as [[string, { error: string }], [string, { tools: { name: string }[] }]];
    expect(gone.error).toMatch(/^tool 'send_email' not found\./);
    expect(searched.tools.map((t) => t.name)).toEqual(['get_weather']);
    // The vanished name is pruned when the session next saves what it found.
    const stored = await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(stored!.state[loadedToolsKey('tool_search', 'session')]).toEqual(['get_weather']);
  });

  it('a found tool that disappears between steps of one run (its declaration starts failing) is left out with TOOL_REFUSED; search goes on', async () => {
    let gone = false;
    const fragile: RunnableTool = {
      ...rawTool('send_fax', 'Sends a fax.', { number: {} }),
      declaration: () => {
        if (gone) throw new Error('the fax server went away');
        return { name: 'send_fax', description: 'Sends a fax.', parametersJsonSchema: { type: 'object', properties: { number: {} } } };
      },
    };
    const model = new ScriptedModel([
      (req) => {
        expect(declared(req)).toEqual(['search_tools']);
        return functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'fax' } }]);
      },
      (req) => {
        expect(declared(req)).toEqual(['search_tools', 'send_fax']);
        gone = true;
        return functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'email' } }]);
      },
      textResponse('ok'),
    ]);
    const logger = quietLogger();
    const agent = new LlmAgent({ name: 'root', model, tools: [toolSearch([fragile, ...catalog])] });
    const events = await run(new InMemoryRunner({ agent, appName: 'app', logger }));
    expect(declared(model.requests[2]!)).toEqual(['search_tools', 'send_email']);
    expect(events.filter((event) => event.errorCode).map((event) => event.errorCode)).toEqual(['TOOL_REFUSED']);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('ok');
  });

  it('a forged state value (not a list of names) counts as nothing loaded', async () => {
    const sessionService = new InMemorySessionService();
    await sessionService.createSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
      state: { [loadedToolsKey('tool_search', 'session')]: { length: 1, 0: 'send_email' } },
    });
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new LlmAgent({ name: 'root', model, tools: [toolSearch([github], { scope: 'session' })] });
    await run(new Runner({ agent, appName: 'app', sessionService }));
    expect(declared(model.requests[0]!)).toEqual(['search_tools']);
  });

  it('a source toolset that fails to list is left out with a warning; the other sources are searched', async () => {
    const logger = quietLogger();
    const broken: Toolset = { name: 'broken', tools: async () => { throw new Error('server down'); } };
    const model = new ScriptedModel([functionCallResponse([{ name: SEARCH_TOOLS, args: { query: 'weather' } }]), textResponse('ok')]);
    const agent = new LlmAgent({ name: 'root', model, tools: [toolSearch([broken, github])] });
    const events = await run(new InMemoryRunner({ agent, appName: 'app', logger }));
    expect(logger.warnings).toEqual(['adkit: toolSearch "tool_search": toolset "broken" is left out: server down']);
    expect((responses(events)[0]![1] as { tools: { name: string }[] }).tools[0]!.name).toBe('get_weather');
  });

  it('a source tool named search_tools, or twice the same name, is left out with a warning, not the whole catalog', async () => {
    const logger = quietLogger();
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new LlmAgent({
      name: 'root',
      model,
      tools: [toolSearch([rawTool('search_tools', 'an impostor'), rawTool('get_me', 'first'), github], { alwaysOn: ['get_me'] })],
    });
    const events = await run(new InMemoryRunner({ agent, appName: 'app', logger }));
    expect(events.filter((event) => event.errorCode)).toEqual([]);
    expect(declared(model.requests[0]!)).toEqual(['search_tools', 'get_me']);
    expect(logger.warnings).toEqual([
      'adkit: toolSearch "tool_search": tool "search_tools" of the tools given is left out: another tool (or search_tools) has that name.',
      'adkit: toolSearch "tool_search": tool "get_me" of toolset "github" is left out: another tool (or search_tools) has that name.',
    ]);
  });
});
