import { frontmatterJson } from './loadSkillTool.js';
import type { SkillFrontmatter } from './skillFrontmatter.js';
import { validateFrontmatter } from './validateFrontmatter.js';
import { yamlModule } from './yamlModule.js';

/**
 * Writes a SKILL.md (SK-4): `---\n` + YAML + `---\n` + the markdown body, after validating the
 * frontmatter strictly (a `SkillError` names the broken rule). `allowed-tools` is written as the
 * space-separated string the Agent Skills specification asks for.
 */
export function formatSkillMd(frontmatter: SkillFrontmatter, body: string): string {
  const fields = frontmatterJson(frontmatter);
  if (Array.isArray(fields['allowed-tools'])) fields['allowed-tools'] = fields['allowed-tools'].join(' ');
  validateFrontmatter(fields, { strict: true });
  return `---\n${yamlModule().stringify(fields, { lineWidth: 0 })}---\n${body}`;
}
