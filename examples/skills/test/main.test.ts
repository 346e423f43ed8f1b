// The example runs as `node dist/main.js` would, offline: the scripted model loads a skill from
// examples/skills/skills, then its template, then answers; the listing it got comes last.
// (@adkit/skill-toolset's README test checks that its README shows src/main.ts and this output.)
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

it('SK-10, SK-11: loads the skill and its resource; the request carried the listing', { timeout: 20_000 }, async () => {
  const { stdout, stderr, exitCode } = await runExample(new URL('../src/main.ts', import.meta.url));
  expect(stdout).toEqual([
    'writer: [call load_skill({"name":"release-notes"})]',
    'writer: [response load_skill: {"skill_name":"release-notes","instructions":"1. Read the template: load_skill_resource with resource_path \\"references/template.md\\".\\n2. Fill it in, one line per change, most important first.\\n","frontmatter":{"name":"release-notes","description":"Writes release notes from a list of changes. Use when the user asks for release notes or a changelog entry.","license":"Apache-2.0"}}]',
    'writer: [call load_skill_resource({"skill_name":"release-notes","resource_path":"references/template.md"})]',
    'writer: [response load_skill_resource: {"skill_name":"release-notes","path":"references/template.md","content":"## <version>\\n- <change>\\n"}]',
    'writer: ## 1.2.0\n- Skills load from SKILL.md folders.',
    [
      '<available_skills>',
      '<skill>',
      '<name>',
      'code-review',
      '</name>',
      '<description>',
      'Reviews a change for bugs, tests and naming. Use when the user asks for a review.',
      '</description>',
      '</skill>',
      '<skill>',
      '<name>',
      'release-notes',
      '</name>',
      '<description>',
      'Writes release notes from a list of changes. Use when the user asks for release notes or a changelog entry.',
      '</description>',
      '</skill>',
      '</available_skills>',
    ].join('\n'),
  ]);
  expect({ stderr, exitCode }).toEqual({ stderr: [], exitCode: 0 });
});
