import { functionTool, type FunctionTool } from '@adkit/function-tool';
import Type from 'typebox';
import type { SkillSource } from './skillSource.js';
import { skillsToXml } from './skillsToXml.js';

const parameters = Type.Object({});

/** `list_skills` (SK-10): `{}` → `{skills: "<available_skills>…"}` (SK-11). */
export function listSkillsTool(source: SkillSource): FunctionTool<typeof parameters> {
  return functionTool({
    name: 'list_skills',
    description: 'Lists all available skills with their names and descriptions.',
    parameters,
    execute: async (_args, ctx) => ({
      skills: skillsToXml(await source.listFrontmatters({ logger: ctx.logger, signal: ctx.signal })),
    }),
  });
}
