// prefixToolset / prefixTool: tools renamed "<prefix>_<name>" in name and declaration, calls
// delegated, capabilities kept, and request processors whose registrations come out renamed.
// Bad input tried: an invalid prefix, a missing toolset, a prefixed name that collides.
import {
  appendInstructions,
  ConfigError,
  createLlmRequest,
  getFunctionResponses,
  isStreamingTool,
  LlmAgent,
  packTool,
  registerTool,
  type FunctionDeclaration,
  type LlmRequest,
  type RunnableTool,
  type Tool,
  type ToolContext,
  type Toolset,
} from '@adkit/flow';
import { createToolContext, functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { isRequestProcessor, isRunnableTool, prefixTool, prefixToolset, type RequestProcessor } from '../src/index.js';
import { rawStreamingTool, rawTool, runOnce } from './support.js';

const ctx = createToolContext();

/** A tool with its own processRequest: it registers itself and adds an instruction. */
class SkillTool implements RunnableTool, RequestProcessor {
  readonly name = 'load_skill';
  readonly description = 'Loads a skill.';
  readonly isLongRunning = true;
  readonly timeoutMs = 500;
  private readonly declared: FunctionDeclaration = { name: 'load_skill', description: 'Loads a skill.' };
  readonly runs: string[] = [];
  constructor(private readonly source: string) {}
  declaration() {
    return this.declared;
  }
  async run(_ctx: ToolContext, args: Record<string, unknown>) {
    this.runs.push(String(args.name));
    return { source: this.source, skill: args.name };
  }
  async processRequest(_ctx: ToolContext, request: LlmRequest) {
    packTool(request, this);
    appendInstructions(request, [`Skills from ${this.source} are available.`]);
  }
}

function toolsetOf(name: string, tools: Tool[], extra: Record<string, unknown> = {}): Toolset {
  return { name, tools: async () => tools, ...extra };
}

describe('prefixTool / prefixToolset', () => {
  it('renames name and declaration, keeps the toolset name, and leaves the original untouched', async () => {
    const search = rawTool('search');
    const prefixed = prefixToolset(toolsetOf('github', [search]), 'gh');
    expect(prefixed.name).toBe('github');
    const [tool] = (await prefixed.tools(ctx)) as RunnableTool[];
    expect(tool!.name).toBe('gh_search');
    expect(tool!.description).toBe('the search tool');
    expect(tool!.declaration()).toEqual({ name: 'gh_search', description: 'the search tool', parametersJsonSchema: { type: 'object' } });
    expect(search.declaration()!.name).toBe('search');
    expect(search.name).toBe('search');
    expect(prefixTool(search, 'gh')).toBe(tool);
  });

  it('two toolsets with the same tool names serve one agent once prefixed; calls reach the right tool', async () => {
    const github = toolsetOf('github', [rawTool('search', () => ({ from: 'github' }))]);
    const jira = toolsetOf('jira', [rawTool('search', () => ({ from: 'jira' }))]);
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'jira_search' }, { name: 'github_search' }]),
      textResponse('found both'),
    ]);
    const agent = new LlmAgent({ name: 'a', model, toolsets: [prefixToolset(github, 'github'), prefixToolset(jira, 'jira')] });
    const { events } = await runOnce(agent);
    expect(model.requests[0]!.config.tools![0]!.functionDeclarations!.map((d) => d.name)).toEqual(['github_search', 'jira_search']);
    expect(getFunctionResponses(events[1]!)).toEqual([
      { id: expect.any(String), name: 'jira_search', response: { from: 'jira' } },
      { id: expect.any(String), name: 'github_search', response: { from: 'github' } },
    ]);

    // Unprefixed, the second toolset is left out of the run, named, and the model is still called (#23 point 9).
    const unprefixed = new ScriptedModel([textResponse('answered with github only')]);
    const clash = await runOnce(new LlmAgent({ name: 'b', model: unprefixed, toolsets: [github, jira] }));
    expect(clash.events.map((e) => e.errorMessage)).toEqual([
      'Toolset "jira" is left out: its tool "search" clashes with a tool of toolset "github"; rename one, or give the toolset a prefix.',
      undefined,
    ]);
    expect(unprefixed.requests[0]!.config.tools![0]!.functionDeclarations!.map((d) => d.name)).toEqual(['search']);
  });

  it('a tool with its own processRequest: the renamed tool is what gets registered and declared', async () => {
    const skills = new SkillTool('repo');
    const wrapper = prefixTool(skills, 'docs');
    const request = createLlmRequest({ config: { tools: [{ googleSearch: {} }, { functionDeclarations: [{ name: 'other' }] }] } });
    registerTool(request, rawTool('other'));
    expect(isRequestProcessor(wrapper)).toBe(true);
    await (wrapper as Tool & RequestProcessor).processRequest(ctx, request);
    expect(Object.keys(request.tools)).toEqual(['other', 'docs_load_skill']);
    expect(request.tools.docs_load_skill).toBe(wrapper);
    expect(request.config.tools).toEqual([
      { googleSearch: {} },
      { functionDeclarations: [{ name: 'other' }, { name: 'docs_load_skill', description: 'Loads a skill.' }] },
    ]);
    expect(request.config.systemInstruction).toEqual({ role: 'user', parts: [{ text: 'Skills from repo are available.' }] });
    expect(skills.declaration().name).toBe('load_skill');
  });

  it('two prefixed copies of a self-registering tool run side by side through the flow', async () => {
    const repo = new SkillTool('repo');
    const wiki = new SkillTool('wiki');
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'wiki_load_skill', args: { name: 'deploy' } }, { name: 'repo_load_skill', args: { name: 'test' } }]),
      textResponse('loaded'),
    ]);
    const agent = new LlmAgent({
      name: 'a',
      model,
      tools: [prefixToolset(toolsetOf('repo', [repo]), 'repo'), prefixToolset(toolsetOf('wiki', [wiki]), 'wiki')],
    });
    const { events } = await runOnce(agent);
    expect(Object.keys(model.requests[0]!.tools)).toEqual(['repo_load_skill', 'wiki_load_skill']);
    expect(model.requests[0]!.config.systemInstruction!.parts![0]!.text).toContain(
      'Skills from repo are available.\n\nSkills from wiki are available.',
    );
    // Long-running is carried over: the calls are marked and the run pauses on them.
    expect(events[0]!.longRunningToolIds).toHaveLength(2);
    expect(getFunctionResponses(events[1]!).map((r) => r.response)).toEqual([
      { source: 'wiki', skill: 'deploy' },
      { source: 'repo', skill: 'test' },
    ]);
    expect([repo.runs, wiki.runs]).toEqual([['test'], ['deploy']]);
  });

  it('keeps exactly the original capabilities and settings', async () => {
    const streaming = prefixTool(rawStreamingTool('ticker', ['a', 'b']), 'x');
    expect(isStreamingTool(streaming)).toBe(true);
    expect(isRunnableTool(streaming)).toBe(false);
    const chunks: string[] = [];
    for await (const chunk of (streaming as typeof streaming & { runStream: (c: ToolContext, a: object) => AsyncIterable<string> }).runStream(ctx, {}))
      chunks.push(chunk);
    expect(chunks).toEqual(['a', 'b']);

    const shaper: Tool & RequestProcessor = {
      name: 'shaper',
      description: 'only shapes requests',
      processRequest: async (_c, request) => appendInstructions(request, ['be brief']),
    };
    const shaped = prefixTool(shaper, 'x');
    expect(isRunnableTool(shaped)).toBe(false);
    expect(isStreamingTool(shaped)).toBe(false);
    const request = createLlmRequest();
    await (shaped as Tool & RequestProcessor).processRequest(ctx, request);
    expect(request.tools).toEqual({});
    expect(request.config.tools).toBeUndefined();

    const skills = prefixTool(new SkillTool('repo'), 'docs');
    expect([skills.isLongRunning, skills.timeoutMs]).toEqual([true, 500]);
    const deferring = prefixTool(rawTool('later', () => undefined, { defersResponse: () => true }), 'x') as Tool & {
      defersResponse?(): boolean;
    };
    expect(deferring.defersResponse?.()).toBe(true);
  });

  it('a prefixed name that is already registered is refused and the request stays unchanged', async () => {
    const request = createLlmRequest();
    packTool(request, rawTool('docs_load_skill'));
    const before = structuredClone(request.config);
    const wrapper = prefixTool(new SkillTool('repo'), 'docs') as Tool & RequestProcessor;
    await expect(wrapper.processRequest(ctx, request)).rejects.toThrow('duplicate tool: "docs_load_skill"');
    expect(request.config).toEqual(before);
    expect(Object.keys(request.tools)).toEqual(['docs_load_skill']);
  });

  it('FL-4: a toolset\'s own processRequest has what it registers prefixed too', async () => {
    const helper = rawTool('helper');
    const inner = toolsetOf('pack', [], {
      processRequest: async (_c: ToolContext, request: LlmRequest) => packTool(request, helper),
    });
    const prefixed = prefixToolset(inner, 'p') as Toolset & RequestProcessor;
    const request = createLlmRequest();
    await prefixed.processRequest(ctx, request);
    expect(Object.keys(request.tools)).toEqual(['p_helper']);
    expect(request.tools.p_helper).toBe(prefixTool(helper, 'p'));
    expect(request.config.tools).toEqual([
      { functionDeclarations: [{ name: 'p_helper', description: 'the helper tool', parametersJsonSchema: { type: 'object' } }] },
    ]);
  });

  it('an invalid prefix or a missing toolset is a ConfigError naming the fix', () => {
    expect(() => prefixToolset(toolsetOf('github', []), '9lives')).toThrow(ConfigError);
    expect(() => prefixToolset(toolsetOf('github', []), 'git hub')).toThrow(
      'prefixToolset("github"): prefix must match /^[a-zA-Z_][a-zA-Z0-9_.-]{0,62}$/ (a letter or underscore, then letters, digits, "_", "." or "-"), got "git hub"; tools are renamed "<prefix>_<name>", e.g. "github_search".',
    );
    expect(() => prefixToolset(null as unknown as Toolset, 'gh')).toThrow(
      'prefixToolset: expected a toolset ({name, tools(ctx)}), got null; pass the toolset to wrap.',
    );
    expect(() => prefixTool(undefined as unknown as Tool, 'gh')).toThrow('prefixTool: expected a tool ({name, description, ...}), got undefined.');
  });
});
