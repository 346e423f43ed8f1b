import { errorMessage, quoted } from '@adkit/flow';
import { functionTool, type FunctionTool } from '@adkit/function-tool';
import { ToolError } from '@adkit/tool';
import Type from 'typebox';
import { isSkillError } from './errors.js';
import { recordLoadedSkill } from './loadedSkills.js';
import type { SkillFrontmatter } from './skillFrontmatter.js';
import type { SkillSource } from './skillSource.js';

const parameters = Type.Object({ name: Type.String({ description: 'The name of the skill to load.' }) });

/**
 * `load_skill` (SK-10): `{name}` → `{skill_name, instructions, frontmatter}` with empty fields
 * left out; records the skill as loaded in session state (see `LoadedSkills`).
 */
export function loadSkillTool(source: SkillSource, toolsetName: string): FunctionTool<typeof parameters> {
  return functionTool({
    name: 'load_skill',
    description: 'Loads the SKILL.md instructions for a given skill.',
    parameters,
    execute: async ({ name }, ctx) => {
      if (name === '') throw new ToolError('skill name is required to load a skill', { toolName: 'load_skill' });
      const options = { logger: ctx.logger, signal: ctx.signal };
      try {
        await source.loadFrontmatter(name, options);
      } catch (error) {
        throw failure(`load frontmatter for skill "${quoted(name)}"`, error);
      }
      let instructions: string;
      let frontmatter: SkillFrontmatter;
      try {
        instructions = await source.loadInstructions(name, options);
        // Loading the instructions re-reads SKILL.md; this is the frontmatter that goes with them.
        frontmatter = await source.loadFrontmatter(name, options);
      } catch (error) {
        throw failure(`load instructions for skill "${quoted(name)}"`, error);
      }
      recordLoadedSkill(ctx, toolsetName, frontmatter.name);
      return {
        skill_name: frontmatter.name,
        ...(instructions ? { instructions } : {}),
        frontmatter: frontmatterJson(frontmatter),
      };
    },
  });
}

/** The frontmatter as the model sees it: the six fields, empty ones left out. */
export function frontmatterJson(frontmatter: SkillFrontmatter): Record<string, unknown> {
  const json: Record<string, unknown> = { name: frontmatter.name, description: frontmatter.description };
  if (frontmatter.license) json.license = frontmatter.license;
  if (frontmatter.compatibility) json.compatibility = frontmatter.compatibility;
  if (frontmatter.metadata && Object.keys(frontmatter.metadata).length > 0) json.metadata = { ...frontmatter.metadata };
  const allowed = frontmatter['allowed-tools'];
  if (allowed && allowed.length > 0) json['allowed-tools'] = [...allowed];
  return json;
}

function failure(what: string, error: unknown): ToolError {
  const hint = isSkillError(error, 'SKILL_NOT_FOUND') ? '; call list_skills to see the available skills' : '';
  return new ToolError(`${what}: ${errorMessage(error)}${hint}`, { toolName: 'load_skill', cause: error });
}
