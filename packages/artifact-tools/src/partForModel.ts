import type { Part } from '@adkit/flow';

/**
 * The part a model can take for a loaded artifact (BT-2, as ADK Go's `safePartForLLM`): images,
 * audio and PDF stay inline data; text-like data (`text/*`, JSON, XML, CSV, YAML, JavaScript) is
 * decoded to text (invalid UTF-8 becomes U+FFFD); any other binary becomes a one-line placeholder
 * naming its type and size, since models refuse such inline data. Text and file-URI parts pass
 * unchanged; a missing artifact or an empty blob becomes a note the model can read.
 */
export function partForModel(part: Part | undefined, name: string): Part {
  if (part === undefined) return { text: `[Artifact: ${JSON.stringify(name)} was not found. It may have been deleted.]` };
  const blob = part.inlineData;
  if (!blob) return part;
  const mimeType = normalizeMimeType(blob.mimeType) || 'application/octet-stream';
  const data = blob.data ?? '';
  if (data.length === 0) return { text: `[Artifact: ${JSON.stringify(name)}, type: ${JSON.stringify(mimeType)}. No inline data was provided.]` };
  if (isInlineMimeType(mimeType)) return part;
  if (isTextMimeType(mimeType)) return { text: Buffer.from(data, 'base64').toString('utf8') };
  return {
    text: `[Binary artifact: ${JSON.stringify(name)}, type: ${JSON.stringify(mimeType)}, size: ${base64ByteLength(data)} bytes. Content cannot be displayed inline.]`,
  };
}

/** The type without parameters, lower case (MIME types are case-insensitive, RFC 2045). */
export function normalizeMimeType(mimeType: string | undefined): string {
  return (mimeType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/** Types models take as inline data: images, audio and PDF. */
export function isInlineMimeType(mimeType: string): boolean {
  return mimeType.startsWith('image/') || mimeType.startsWith('audio/') || mimeType === 'application/pdf';
}

const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/csv',
  'application/yaml',
  'application/x-yaml',
  'application/javascript',
  'application/x-ndjson',
  'application/sql',
]);

/** Types whose bytes are text. */
export function isTextMimeType(mimeType: string): boolean {
  return mimeType.startsWith('text/') || TEXT_TYPES.has(mimeType) || mimeType.endsWith('+json') || mimeType.endsWith('+xml');
}

/** The number of bytes a base64 string holds, without decoding it. */
function base64ByteLength(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.replace(/\s+/g, '').length * 3) / 4) - padding;
}
