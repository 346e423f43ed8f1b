// allowed-tools honoured, and tools unlocked by skills, end to end through a real runner. The
// semantics under test (README "Loaded skills"): load_skill records the skill in session state;
// from the next model step the skill loaded last restricts calls to its allowed-tools (plus the
// skill tools, the tools it unlocks, transfer_to_agent and set_model_response) until the run ends
// or another skill is loaded. Bad input tried: a call to a forbidden tool, a forbidden call in the
// same response as load_skill, MCP-style tool names with spaces and slashes, a streaming tool, an
// unlock naming a tool that does not exist.
import { createUserContent, InMemorySessionService, LlmAgent, Runner } from '@adkit/flow';
import { functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { functionTool, streamingFunctionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { additionalToolNames, fileSystemSource, inMemorySource, skillToolset, type InMemorySkill } from '../src/index.js';
import { agentRunner, FIXTURES, responses, systemText } from './support.js';

function tools() {
  const calls: string[] = [];
  const make = (name: string) =>
    functionTool({
      name,
      description: `The ${name} tool.`,
      parameters: Type.Object({}),
      execute: () => {
        calls.push(name);
        return { ok: name };
      },
    });
  return { calls, Bash: make('Bash'), getWeather: make('get_weather'), azure: make('Azure_MCP_documentation'), renderMap: make('render_map') };
}

const SKILLS: InMemorySkill[] = [
  { frontmatter: { name: 'git-commit', description: 'Commits.', 'allowed-tools': 'Bash(git add, git commit)' }, instructions: 'Use Bash only.' },
  { frontmatter: { name: 'free', description: 'No restriction.' }, instructions: 'Anything goes.' },
  {
    frontmatter: { name: 'maps', description: 'Draws maps.', 'allowed-tools': 'Read', metadata: { adk_additional_tools: ['render_map'] } },
    instructions: 'Call render_map.',
    resources: { 'references/style.md': 'blue' },
  },
];

const refusal = (tool: string, skill: string, allowed: string) =>
  `Tool "${tool}" is not allowed while skill "${skill}" is loaded; its allowed-tools are: ${allowed}. Use one of those tools or the skill tools, or load another skill.`;

describe('allowed-tools', () => {
  it('while a loaded skill declares allowed-tools, other tools are refused with an error naming the skill', async () => {
    const t = tools();
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'load_skill', args: { name: 'git-commit' } }]),
      functionCallResponse([{ name: 'get_weather' }, { name: 'Bash' }, { name: 'list_skills' }]),
      textResponse('Committed.'),
    ]);
    const { turn } = agentRunner(model, { tools: [t.Bash, t.getWeather], toolsets: [skillToolset({ source: inMemorySource(SKILLS) })] });
    const events = await turn('Commit my work.');
    const answered = responses(events);
    expect(answered.slice(1, 3)).toEqual([
      { name: 'get_weather', response: { error: refusal('get_weather', 'git-commit', 'Bash(git add, git commit)') } },
      { name: 'Bash', response: { ok: 'Bash' } },
    ]);
    expect(answered[3]!.name).toBe('list_skills');
    expect(answered[3]!.response).toHaveProperty('skills');
    expect(t.calls).toEqual(['Bash']);
    // The model is told, and still sees every declaration.
    expect(systemText(model.requests[0]!)).not.toContain('is loaded and allows only');
    expect(systemText(model.requests[1]!)).toContain(
      'Skill "git-commit" is loaded and allows only these tools: Bash, list_skills, load_skill, load_skill_resource. Calls to other tools are refused until this run ends or another skill is loaded.',
    );
    expect(model.requests[1]!.config.tools?.[0]?.functionDeclarations?.map((d) => d.name)).toContain('get_weather');
  });

  it('calls in the same model response as load_skill are not restricted yet', async () => {
    const t = tools();
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'load_skill', args: { name: 'git-commit' } }, { name: 'get_weather' }]),
      textResponse('Done.'),
    ]);
    const { turn } = agentRunner(model, { tools: [t.Bash, t.getWeather], toolsets: [skillToolset({ source: inMemorySource(SKILLS) })] });
    expect(responses(await turn('Go.'))[1]).toEqual({ name: 'get_weather', response: { ok: 'get_weather' } });
  });

  it('the restriction ends with the run, and loading another skill lifts it', async () => {
    const t = tools();
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'load_skill', args: { name: 'git-commit' } }]),
      textResponse('Loaded.'),
      // Next run: a new user turn.
      functionCallResponse([{ name: 'get_weather' }]),
      textResponse('Sunny.'),
      // Third run: restricted again, then lifted by another skill in the same run.
      functionCallResponse([{ name: 'load_skill', args: { name: 'git-commit' } }]),
      functionCallResponse([{ name: 'get_weather' }]),
      functionCallResponse([{ name: 'load_skill', args: { name: 'free' } }]),
      functionCallResponse([{ name: 'get_weather' }]),
      textResponse('Done.'),
    ]);
    const { turn } = agentRunner(model, { tools: [t.Bash, t.getWeather], toolsets: [skillToolset({ source: inMemorySource(SKILLS) })] });
    await turn('Load git.');
    expect(responses(await turn('Weather?'))).toEqual([{ name: 'get_weather', response: { ok: 'get_weather' } }]);
    const third = responses(await turn('Again.')).filter((r) => r.name === 'get_weather');
    expect(third).toEqual([
      { name: 'get_weather', response: { error: refusal('get_weather', 'git-commit', 'Bash(git add, git commit)') } },
      { name: 'get_weather', response: { ok: 'get_weather' } },
    ]);
    expect(t.calls).toEqual(['get_weather', 'get_weather']);
  });

  it('MCP-style names match through toFunctionName (the real azure-role-selector skill); streaming tools are refused too', async () => {
    const t = tools();
    const stream = streamingFunctionTool({
      name: 'tail_log',
      description: 'Streams a log.',
      parameters: Type.Object({}),
      execute: async function* () {
        yield 'line';
      },
    });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'load_skill', args: { name: 'azure-role-selector' } }]),
      functionCallResponse([{ name: 'Azure_MCP_documentation' }, { name: 'tail_log' }]),
      textResponse('Use Reader.'),
    ]);
    const { turn } = agentRunner(model, {
      tools: [t.azure, stream],
      toolsets: [skillToolset({ source: fileSystemSource(FIXTURES) })],
    });
    const answered = responses(await turn('Which role?')).slice(1);
    const allowed = 'Azure MCP/documentation, Azure MCP/bicepschema, Azure MCP/extension_cli_generate, Azure MCP/get_bestpractices';
    expect(answered).toEqual([
      { name: 'Azure_MCP_documentation', response: { ok: 'Azure_MCP_documentation' } },
      { name: 'tail_log', response: { error: refusal('tail_log', 'azure-role-selector', allowed) } },
    ]);
  });

  it('transfer_to_agent stays allowed, so a restricted agent can still hand over', async () => {
    const t = tools();
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'load_skill', args: { name: 'git-commit' } }]),
      functionCallResponse([{ name: 'transfer_to_agent', args: { agent_name: 'weather' } }]),
    ]);
    const weather = new LlmAgent({ name: 'weather', description: 'Weather.', model: new ScriptedModel([textResponse('Sunny.')]) });
    const { turn } = agentRunner(model, { tools: [t.Bash], subAgents: [weather], toolsets: [skillToolset({ source: inMemorySource(SKILLS) })] });
    const events = await turn('Weather?');
    expect(responses(events)[1]).toEqual({ name: 'transfer_to_agent', response: {} });
    expect(events.at(-1)).toMatchObject({ author: 'weather', content: { parts: [{ text: 'Sunny.' }] } });
  });

  it('enforceAllowedTools: false leaves every tool callable', async () => {
    const t = tools();
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'load_skill', args: { name: 'git-commit' } }]),
      functionCallResponse([{ name: 'get_weather' }]),
      textResponse('Ok.'),
    ]);
    const { turn } = agentRunner(model, {
      tools: [t.getWeather],
      toolsets: [skillToolset({ source: inMemorySource(SKILLS), enforceAllowedTools: false })],
    });
    expect(responses(await turn('Go.'))[1]).toEqual({ name: 'get_weather', response: { ok: 'get_weather' } });
  });
});

describe('tools unlocked by a skill (metadata.adk_additional_tools)', () => {
  it('an additional tool is hidden until its skill is loaded, callable from the next step on, and stays for the session', async () => {
    const t = tools();
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'render_map' }]),
      functionCallResponse([{ name: 'load_skill', args: { name: 'maps' } }]),
      functionCallResponse([{ name: 'render_map' }, { name: 'get_weather' }, { name: 'load_skill_resource', args: { skill_name: 'maps', resource_path: 'references/style.md' } }]),
      textResponse('Drawn.'),
      functionCallResponse([{ name: 'render_map' }]),
      textResponse('Drawn again.'),
    ]);
    const { turn } = agentRunner(model, {
      tools: [t.getWeather],
      toolsets: [skillToolset({ source: inMemorySource(SKILLS), additionalTools: [t.renderMap] })],
    });
    const first = responses(await turn('Draw a map.'));
    const declared = (i: number) => model.requests[i]!.config.tools?.[0]?.functionDeclarations?.map((d) => d.name);
    expect(declared(0)).toEqual(['get_weather', 'list_skills', 'load_skill', 'load_skill_resource']);
    expect(declared(2)).toEqual(['get_weather', 'list_skills', 'load_skill', 'load_skill_resource', 'render_map']);
    expect(first[0]!.response.error).toMatch(/^tool 'render_map' not found.\nAvailable tools: get_weather, list_skills, load_skill, load_skill_resource\n/);
    // maps allows Read only, but the tool it unlocks and the skill tools stay usable.
    expect(first.slice(2)).toEqual([
      { name: 'render_map', response: { ok: 'render_map' } },
      { name: 'get_weather', response: { error: refusal('get_weather', 'maps', 'Read') } },
      { name: 'load_skill_resource', response: { skill_name: 'maps', path: 'references/style.md', content: 'blue' } },
    ]);
    // A later run: the unlocked tool is among the toolset's tools from the start.
    expect(responses(await turn('Again.'))).toEqual([{ name: 'render_map', response: { ok: 'render_map' } }]);
    expect(declared(4)).toEqual(['get_weather', 'list_skills', 'load_skill', 'load_skill_resource', 'render_map']);
    expect(t.calls).toEqual(['render_map', 'render_map']);
  });

  it('an unlock naming a missing tool is warned about once on the runner logger', async () => {
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'load_skill', args: { name: 'maps' } }]),
      textResponse('a'),
      textResponse('b'),
    ]);
    const { turn, logger } = agentRunner(model, { toolsets: [skillToolset({ source: inMemorySource(SKILLS), additionalTools: [tools().Bash] })] });
    await turn('Draw.');
    await turn('Draw more.');
    expect(logger.warnings).toEqual([
      '@adkit/skill-toolset: skill "maps" unlocks tool "render_map" (metadata.adk_additional_tools), but no such tool is in additionalTools of skill toolset "SkillToolset"',
    ]);
  });

  it('additional toolsets are listed once per run and closed with the skill toolset', async () => {
    const t = tools();
    let listed = 0;
    let closed = 0;
    const extra = { name: 'extra', tools: async () => (listed++, [t.renderMap]), close: async () => void closed++ };
    const toolset = skillToolset({ source: inMemorySource(SKILLS), additionalTools: [extra] });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'load_skill', args: { name: 'maps' } }]),
      functionCallResponse([{ name: 'render_map' }]),
      textResponse('Drawn.'),
    ]);
    const runner = new Runner({
      appName: 'a',
      agent: new LlmAgent({ name: 'helper', model, toolsets: [toolset] }),
      sessionService: new InMemorySessionService(),
      autoCreateSession: true,
    });
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('Draw.') }));
    expect(listed).toBe(1);
    await runner.close();
    expect(closed).toBe(1);
  });

  it('additionalToolNames reads a YAML list or a space/comma-separated string', () => {
    const base = { name: 'a', description: 'd' };
    expect(additionalToolNames({ ...base, metadata: { adk_additional_tools: '["x","y"]' } })).toEqual(['x', 'y']);
    expect(additionalToolNames({ ...base, metadata: { adk_additional_tools: 'x, y z' } })).toEqual(['x', 'y', 'z']);
    expect(additionalToolNames(base)).toEqual([]);
  });
});
