import { errorMessage, quoted, type Content, type LlmRequest, type Part } from '@adkit/flow';
import { mimeTypeOf } from './mimeType.js';
import { BINARY_RESOURCE_NOTE } from './loadSkillResourceTool.js';
import type { LoadResourceOptions, SkillSource } from './skillSource.js';

/**
 * When the request's last content answers `load_skill_resource` calls with binary files, appends
 * one user content per file, in order: `Resource "<path>" of skill "<name>" is:` and the bytes as
 * inline data with their MIME type (the `load_artifacts` protocol, BT-2). The model sees them in
 * the step right after the call; history keeps only the response. A file that can no longer be
 * read is reported as text instead.
 */
export async function attachBinaryResources(
  request: LlmRequest,
  toolName: string,
  source: SkillSource,
  options: LoadResourceOptions,
): Promise<void> {
  const last = request.contents[request.contents.length - 1];
  const wanted: { skill: string; path: string }[] = [];
  for (const part of last?.parts ?? []) {
    const response = part.functionResponse;
    if (response?.name !== toolName || response.response?.note !== BINARY_RESOURCE_NOTE) continue;
    const { skill_name: skill, path } = response.response;
    if (typeof skill === 'string' && typeof path === 'string') wanted.push({ skill, path });
  }
  if (wanted.length === 0) return;
  const contents = await Promise.all(
    wanted.map(async ({ skill, path }): Promise<Content> => {
      const intro: Part = { text: `Resource "${path}" of skill "${skill}" is:` };
      try {
        const bytes = await source.loadResource(skill, path, options);
        return { role: 'user', parts: [intro, { inlineData: { mimeType: mimeTypeOf(path), data: Buffer.from(bytes).toString('base64') } }] };
      } catch (error) {
        return { role: 'user', parts: [{ text: `Resource "${quoted(path)}" of skill "${quoted(skill)}" could not be attached: ${errorMessage(error)}` }] };
      }
    }),
  );
  request.contents.push(...contents);
}
