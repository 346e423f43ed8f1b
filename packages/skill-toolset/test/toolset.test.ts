// The skill toolset through a real runner and ScriptedModel (SK-9 … SK-12): the three tools, the
// instruction and listing on the request the model actually receives, load_skill's state record,
// binary resources as inline data, warnings on the runner's logger. Bad input tried: an empty
// name, an unknown skill, an unknown argument, a traversal path through the tool, a strict source
// with a rule breaker (the step fails with an error event), no skills at all.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolContext, functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { isRunnableTool, type FunctionDeclaration, type RunnableTool } from '@adkit/flow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import {
  DEFAULT_SKILL_SYSTEM_INSTRUCTION,
  fileSystemSource,
  inMemorySource,
  loadedSkillsKey,
  skillToolset,
  type SkillToolset,
} from '../src/index.js';
import { agentRunner, FIXTURES, responses, systemText } from './support.js';

const TOP_LEVEL = [
  'acquire-codebase-knowledge', 'algorithmic-art', 'azure-role-selector', 'brand-guidelines', 'claude-api',
  'composition-patterns', 'gh-fix-ci', 'git-commit', 'mcp-builder', 'mentoring-juniors', 'microsoft-skill-creator',
  'notion-knowledge-capture', 'qdrant-scaling', 'skill-creator', 'slack-gif-creator', 'systematic-debugging',
  'test-driven-development', 'theme-factory', 'web-design-guidelines', 'webapp-testing',
];

/** SK-11's listing for the corpus, built here from the raw files. */
function expectedListing(): string {
  const escape = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;').replace(/"/g, '&#34;');
  let xml = '<available_skills>\n';
  for (const folder of TOP_LEVEL) {
    const text = readFileSync(join(FIXTURES, folder, 'SKILL.md'), 'utf8');
    const yaml = parse(text.slice(4, text.indexOf('\n---\n', 3) + 1)) as { name: string; description: string };
    xml += `<skill>\n<name>\n${escape(yaml.name)}\n</name>\n<description>\n${escape(yaml.description)}\n</description>\n</skill>\n`;
  }
  return `${xml}</available_skills>`;
}

function tool(toolset: SkillToolset, tools: Awaited<ReturnType<SkillToolset['tools']>>, name: string): RunnableTool {
  const found = tools.find((item) => item.name === name);
  if (!found || !isRunnableTool(found)) throw new Error(`no tool ${name} in ${toolset.name}`);
  return found;
}

afterEach(() => vi.restoreAllMocks());

const silent = { warn() {}, error() {} };

describe('SK-9, SK-10: the three tools', () => {
  it('SK-9: tools() returns list_skills, load_skill, load_skill_resource, with the SK-10 declarations', async () => {
    const toolset = skillToolset({ source: inMemorySource([]) });
    const tools = await toolset.tools(createToolContext());
    expect(toolset.name).toBe('SkillToolset');
    const declarations = tools.map((item) => (item as RunnableTool).declaration()) as FunctionDeclaration[];
    expect(declarations).toEqual([
      {
        name: 'list_skills',
        description: 'Lists all available skills with their names and descriptions.',
        parametersJsonSchema: { type: 'object', properties: {} },
      },
      {
        name: 'load_skill',
        description: 'Loads the SKILL.md instructions for a given skill.',
        parametersJsonSchema: {
          type: 'object',
          properties: { name: { type: 'string', description: 'The name of the skill to load.' } },
          required: ['name'],
        },
      },
      {
        name: 'load_skill_resource',
        description: 'Loads a resource file (e.g., from references/ or assets/) associated with the specified skill.',
        parametersJsonSchema: {
          type: 'object',
          properties: {
            skill_name: { type: 'string', description: 'The name of the skill.' },
            resource_path: {
              type: 'string',
              description: "The relative path to the resource (e.g., 'references/my_doc.md', 'assets/template.txt', or 'scripts/setup.sh').",
            },
          },
          required: ['skill_name', 'resource_path'],
        },
      },
    ]);
  });

  it('SK-10: errors name the call and the fix', async () => {
    const toolset = skillToolset({ source: fileSystemSource(FIXTURES) });
    const tools = await toolset.tools(createToolContext());
    const run = (name: string, args: Record<string, unknown>) =>
      tool(toolset, tools, name).run(createToolContext({ logger: silent }), args).then(
        (result) => result,
        (error: Error) => ({ error: error.message }),
      );
    expect(await run('load_skill', { name: '' })).toEqual({ error: 'skill name is required to load a skill' });
    expect(await run('load_skill', { name: '__proto__' })).toEqual({
      error: 'load frontmatter for skill "__proto__": skill "__proto__" not found; call list_skills to see the available skills',
    });
    expect(await run('load_skill', { name: '../mcp-builder' })).toMatchObject({ error: expect.stringContaining('not found') });
    expect(await run('load_skill', { name: 'nope' })).toEqual({
      error: 'load frontmatter for skill "nope": skill "nope" not found; call list_skills to see the available skills',
    });
    // FT-4: arguments the schema does not know are dropped, not passed on.
    expect(await run('load_skill', { name: 'mcp-builder', extra: 1 })).toMatchObject({ skill_name: 'mcp-builder' });
    expect(await run('load_skill_resource', { skill_name: '', resource_path: 'x' })).toEqual({ error: 'skill name is required to load a resource' });
    expect(await run('load_skill_resource', { skill_name: 'mcp-builder', resource_path: '' })).toEqual({
      error: 'resource path is required to load a resource for skill "mcp-builder"',
    });
    expect(await run('load_skill_resource', { skill_name: 'mcp-builder', resource_path: '../git-commit/SKILL.md' })).toEqual({
      error: `load resource '../git-commit/SKILL.md' from skill 'mcp-builder': invalid resource path "../git-commit/SKILL.md" for skill "mcp-builder": it leaves the skill folder`,
    });
    expect(await run('load_skill_resource', { skill_name: 'mcp-builder', resource_path: 'reference/none.md' })).toEqual({
      error: `load resource 'reference/none.md' from skill 'mcp-builder': resource "reference/none.md" not found in skill "mcp-builder"`,
    });
    expect(await run('load_skill_resource', { skill_name: 'nope', resource_path: 'a.md' })).toEqual({
      error: `load resource 'a.md' from skill 'nope': skill "nope" not found`,
    });
    expect(await run('list_skills', { surprise: true })).toHaveProperty('skills');
  });

  it('SK-10: resources over maxResourceBytes get the SK-10 message', async () => {
    const toolset = skillToolset({ source: fileSystemSource(FIXTURES), maxResourceBytes: 100 });
    const tools = await toolset.tools(createToolContext());
    await expect(tool(toolset, tools, 'load_skill_resource').run(createToolContext({ logger: silent }), { skill_name: 'mcp-builder', resource_path: 'reference/evaluation.md' })).rejects.toThrow(
      "resource 'reference/evaluation.md' from skill 'mcp-builder' is too large (limit: 100 bytes)",
    );
  });

  it('construction errors name the fix', () => {
    expect(() => skillToolset({} as never)).toThrow('skillToolset: skill source must be provided; pass { source: fileSystemSource("./skills") }.');
    expect(() => skillToolset({ source: inMemorySource([]), maxResourceBytes: 0 })).toThrow('maxResourceBytes must be a positive integer');
    expect(() => skillToolset({ source: inMemorySource([]), additionalTools: [{ name: 'load_skill', description: 'x' }] })).toThrow(
      'additional tool "load_skill" clashes with a skill tool; rename it.',
    );
  });
});

describe('a full agent run (SK-9, SK-11, SK-12)', () => {
  it('list_skills → load_skill → load_skill_resource; every request carries the instruction and the listing', async () => {
    const stdout = vi.spyOn(process.stdout, 'write');
    const log = vi.spyOn(console, 'log');
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'list_skills', args: {} }]),
      functionCallResponse([{ name: 'load_skill', args: { name: 'mcp-builder' } }]),
      functionCallResponse([{ name: 'load_skill_resource', args: { skill_name: 'mcp-builder', resource_path: 'reference/evaluation.md' } }]),
      textResponse('Done.'),
    ]);
    const { turn, logger, sessionService } = agentRunner(model, { toolsets: [skillToolset({ source: fileSystemSource(FIXTURES) })] });
    const events = await turn('Build me an MCP server.');

    const listing = expectedListing();
    expect(model.requests).toHaveLength(4);
    for (const request of model.requests) {
      expect(systemText(request).endsWith(`\n\n${DEFAULT_SKILL_SYSTEM_INSTRUCTION}\n\n${listing}`)).toBe(true);
      expect(request.config.tools?.[0]?.functionDeclarations?.map((d) => d.name)).toEqual(['list_skills', 'load_skill', 'load_skill_resource']);
    }
    // SK-12: the parameter is name, not skill_name.
    expect(DEFAULT_SKILL_SYSTEM_INSTRUCTION).toContain('`load_skill` tool with `name="<SKILL_NAME>"`');
    expect(listing).toContain('Anthropic&#39;s official brand colors');

    const body = readFileSync(join(FIXTURES, 'mcp-builder/SKILL.md'), 'utf8').split('\n---\n').slice(1).join('\n---\n');
    expect(responses(events)).toEqual([
      { name: 'list_skills', response: { skills: listing } },
      {
        name: 'load_skill',
        response: {
          skill_name: 'mcp-builder',
          instructions: body,
          frontmatter: {
            name: 'mcp-builder',
            description: expect.stringMatching(/^Guide for creating high-quality MCP/),
            license: 'Complete terms in LICENSE.txt',
          },
        },
      },
      {
        name: 'load_skill_resource',
        response: {
          skill_name: 'mcp-builder',
          path: 'reference/evaluation.md',
          content: readFileSync(join(FIXTURES, 'mcp-builder/reference/evaluation.md'), 'utf8'),
        },
      },
    ]);
    // The model saw each response in the next request.
    expect(JSON.stringify(model.requests[3]!.contents)).toContain('"name":"load_skill_resource"');
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe('Done.');

    // load_skill recorded the skill in session state.
    const session = await sessionService.getSession({ appName: 'skills-test', userId: 'u', sessionId: 's1' });
    expect(session!.state[loadedSkillsKey('SkillToolset', 'helper')]).toEqual({
      loaded: ['mcp-builder'],
      active: 'mcp-builder',
      invocationId: events[0]!.invocationId,
    });

    // Lenient warnings went to the runner's logger, once, and nothing to stdout.
    expect(logger.warnings).toHaveLength(8);
    expect(logger.warnings[0]).toMatch(/^@adkit\/skill-toolset: acquire-codebase-knowledge\/SKILL.md: unknown field "argument-hint"/);
    expect(stdout).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });

  it('SK-9: with no skills nothing is added to the request', async () => {
    const model = new ScriptedModel([textResponse('Hi.')]);
    const { turn } = agentRunner(model, { instruction: 'Be brief.', toolsets: [skillToolset({ source: inMemorySource([]) })] });
    await turn('Hello');
    expect(systemText(model.requests[0]!)).not.toContain('skills');
    expect(systemText(model.requests[0]!)).toMatch(/^Be brief\./);
  });

  it('a custom systemInstruction replaces SK-12 and keeps the listing', async () => {
    const model = new ScriptedModel([textResponse('Hi.')]);
    const source = inMemorySource([{ frontmatter: { name: 'a-b', description: 'Uses <tags> & "quotes"' } }]);
    const { turn } = agentRunner(model, { toolsets: [skillToolset({ source, systemInstruction: 'Skills below.' })] });
    await turn('Hello');
    expect(systemText(model.requests[0]!).endsWith(
      '\n\nSkills below.\n\n<available_skills>\n<skill>\n<name>\na-b\n</name>\n<description>\nUses &lt;tags&gt; &amp; &#34;quotes&#34;\n</description>\n</skill>\n</available_skills>',
    )).toBe(true);
  });

  it('binary resources come back as inline data with their MIME type, in the request right after the call', async () => {
    const pdf = readFileSync(join(FIXTURES, 'theme-factory/theme-showcase.pdf'));
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'load_skill_resource', args: { skill_name: 'theme-factory', resource_path: 'theme-showcase.pdf' } }]),
      textResponse('It shows ten themes.'),
    ]);
    const { turn } = agentRunner(model, { toolsets: [skillToolset({ source: fileSystemSource(FIXTURES, { logger: { warn() {} } }) })] });
    const events = await turn('What is in the showcase?');
    expect(responses(events)[0]!.response).toEqual({
      skill_name: 'theme-factory',
      path: 'theme-showcase.pdf',
      mime_type: 'application/pdf',
      size: pdf.length,
      note: 'The file is binary; its content follows this response as inline data.',
    });
    const contents = model.requests[1]!.contents;
    expect(contents.at(-2)?.parts?.[0]?.functionResponse?.name).toBe('load_skill_resource');
    expect(contents.at(-1)).toEqual({
      role: 'user',
      parts: [
        { text: 'Resource "theme-showcase.pdf" of skill "theme-factory" is:' },
        { inlineData: { mimeType: 'application/pdf', data: pdf.toString('base64') } },
      ],
    });
    // The bytes are not in the saved response (only in that one request).
    expect(JSON.stringify(events)).not.toContain(pdf.toString('base64').slice(0, 100));
  });

  it('SK-6 strict: a rule breaker fails the step with an error event naming the toolset and the file', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const { turn } = agentRunner(model, { toolsets: [skillToolset({ source: fileSystemSource(FIXTURES, { strict: true }) })] });
    const events = await turn('Hello');
    expect(model.requests).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({
      errorCode: 'REQUEST_ERROR',
      errorMessage: expect.stringContaining(
        'process request by toolset "SkillToolset": acquire-codebase-knowledge/SKILL.md: unknown field "argument-hint"',
      ),
    });
  });
});
