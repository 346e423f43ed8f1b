// Issue #23 point 19: the skill tools quote at most a bounded prefix of the names and paths a
// model sends (100 characters of a name, 200 of a path), so a 1 MB one never rides along whole.
import { isRunnableTool } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { expect, it } from 'vitest';
import { inMemorySource, skillToolset } from '../src/index.js';

const huge = (char: string) => char.repeat(1_000_000);

it('SK-5, SK-7: load_skill and load_skill_resource quote 1 MB names and paths in a bounded prefix', async () => {
  const toolset = skillToolset({ source: inMemorySource([{ frontmatter: { name: 'demo', description: 'd' }, resources: { 'references/a.md': 'A' } }]) });
  const tools = Object.fromEntries((await toolset.tools(createToolContext())).map((tool) => [tool.name, tool]));
  const run = (name: string, args: Record<string, unknown>) => {
    const tool = tools[name]!;
    if (!isRunnableTool(tool)) throw new Error(`${name} is not runnable`);
    return tool.run(createToolContext(), args).then(
      () => '',
      (error: Error) => error.message,
    );
  };
  const skill = await run('load_skill', { name: huge('s') });
  expect(skill).toBe(`load frontmatter for skill "${'s'.repeat(100)}…": skill "${'s'.repeat(100)}…" not found; call list_skills to see the available skills`);
  const resource = await run('load_skill_resource', { skill_name: 'demo', resource_path: `references/${huge('p')}` });
  expect(resource.length).toBeLessThan(600);
  expect(resource).toContain(`references/${'p'.repeat(189)}…`);
  const missing = await run('load_skill_resource', { skill_name: huge('s'), resource_path: 'references/a.md' });
  expect(missing.length).toBeLessThan(600);
});
