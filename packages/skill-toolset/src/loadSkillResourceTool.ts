import { errorMessage, quoted } from '@adkit/flow';
import { functionTool, type FunctionTool } from '@adkit/function-tool';
import { ToolError } from '@adkit/tool';
import Type from 'typebox';
import { isSkillError } from './errors.js';
import { asText, mimeTypeOf } from './mimeType.js';
import type { SkillSource } from './skillSource.js';

const parameters = Type.Object({
  skill_name: Type.String({ description: 'The name of the skill.' }),
  resource_path: Type.String({
    description:
      "The relative path to the resource (e.g., 'references/my_doc.md', 'assets/template.txt', or 'scripts/setup.sh').",
  }),
});

/** The note a binary resource's response carries; the file itself follows as inline data. */
export const BINARY_RESOURCE_NOTE = 'The file is binary; its content follows this response as inline data.';

/**
 * `load_skill_resource` (SK-10): `{skill_name, resource_path}` → `{skill_name, path, content}` for
 * text. A binary file (not UTF-8, or with NUL bytes) answers `{skill_name, path, mime_type, size,
 * note}`, and the toolset attaches the bytes as inline data to the next request (like
 * `load_artifacts`, BT-2).
 */
export function loadSkillResourceTool(source: SkillSource, maxBytes: number): FunctionTool<typeof parameters> {
  return functionTool({
    name: 'load_skill_resource',
    description: 'Loads a resource file (e.g., from references/ or assets/) associated with the specified skill.',
    parameters,
    execute: async ({ skill_name: skill, resource_path: path }, ctx) => {
      const fail = (message: string, cause?: unknown) => new ToolError(message, { toolName: 'load_skill_resource', cause });
      if (skill === '') throw fail('skill name is required to load a resource');
      if (path === '') throw fail(`resource path is required to load a resource for skill "${quoted(skill)}"`);
      let bytes: Uint8Array;
      try {
        bytes = await source.loadResource(skill, path, { logger: ctx.logger, signal: ctx.signal, maxBytes });
      } catch (error) {
        // The size limit has its own message (SK-10); the rest say which call failed.
        if (isSkillError(error, 'SKILL_RESOURCE_TOO_LARGE')) throw fail(error.message, error);
        throw fail(`load resource '${quoted(path)}' from skill '${quoted(skill)}': ${errorMessage(error)}`, error);
      }
      const content = asText(bytes);
      if (content !== undefined) return { skill_name: skill, path, ...(content ? { content } : {}) };
      return { skill_name: skill, path, mime_type: mimeTypeOf(path), size: bytes.length, note: BINARY_RESOURCE_NOTE };
    },
  });
}
