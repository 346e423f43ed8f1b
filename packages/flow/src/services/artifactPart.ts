import type { Part } from '../content/content.js';
import { ArtifactError } from '../errors.js';

/**
 * Throws an `ArtifactError` naming the fix unless the artifact is a `Part` object whose `text` is
 * a string and whose `inlineData.data` is a (base64) string when present. Artifact services call
 * it before saving, so what a store keeps can be loaded back as it was given.
 */
export function assertArtifactPart(artifact: unknown, method: string): asserts artifact is Part {
  const kind = artifact === null ? 'null' : Array.isArray(artifact) ? 'an array' : typeof artifact;
  if (kind !== 'object')
    throw new ArtifactError(
      `${method} needs a Part to save, such as {text: "…"} or {inlineData: {mimeType: "image/png", data: "<base64>"}}, got ${kind}.`,
    );
  const part = artifact as Part;
  if (part.text !== undefined && typeof part.text !== 'string')
    throw new ArtifactError(`${method}: the part's text must be a string, got ${typeof part.text}.`);
  const inline = part.inlineData as unknown;
  if (inline !== undefined && (typeof inline !== 'object' || inline === null))
    throw new ArtifactError(`${method}: inlineData must be {mimeType, data}, got ${inline === null ? 'null' : typeof inline}.`);
  const data = (inline as { data?: unknown } | undefined)?.data;
  if (data !== undefined && typeof data !== 'string')
    throw new ArtifactError(
      `${method}: inlineData.data must be a base64 string, got ${typeof data}; encode bytes with Buffer.from(bytes).toString('base64').`,
    );
}
