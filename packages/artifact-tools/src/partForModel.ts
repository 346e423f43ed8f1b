import type { Part } from '@adkit/flow';

/** Text artifacts larger than this reach the model as their head and a note (a request stays small). */
export const MAX_TEXT_ARTIFACT_BYTES = 256 * 1024;
/** How much of a too-large text artifact the model sees. */
export const TEXT_ARTIFACT_HEAD_BYTES = 16 * 1024;
/** Inline data (images, audio, PDF) larger than this becomes a placeholder; providers refuse more. */
export const MAX_INLINE_ARTIFACT_BYTES = 20 * 1024 * 1024;

/**
 * The part a model can take for a loaded artifact (BT-2, as ADK Go's `safePartForLLM`): images,
 * audio and PDF stay inline data; text-like data (`text/*`, JSON, XML, CSV, YAML, JavaScript) is
 * decoded to text (invalid UTF-8 becomes U+FFFD); any other binary becomes a one-line placeholder
 * naming its type and size, since models refuse such inline data. Text and file-URI parts pass
 * unchanged; a missing artifact or an empty blob becomes a note the model can read. Sizes are
 * bounded: text over `MAX_TEXT_ARTIFACT_BYTES` comes as its first `TEXT_ARTIFACT_HEAD_BYTES` and a
 * note with the full size; inline data over `MAX_INLINE_ARTIFACT_BYTES` becomes a placeholder.
 */
export function partForModel(part: Part | undefined, name: string): Part {
  if (part === undefined) return { text: `[Artifact: ${JSON.stringify(name)} was not found. It may have been deleted.]` };
  const blob = part.inlineData;
  if (!blob) {
    if (part.text !== undefined && Buffer.byteLength(part.text) > MAX_TEXT_ARTIFACT_BYTES) {
      const head = headChars(part.text, TEXT_ARTIFACT_HEAD_BYTES);
      return {
        text: `${head}\n[Artifact ${JSON.stringify(name)} is ${Buffer.byteLength(part.text)} bytes; the first ${head.length} characters are shown above.]`,
      };
    }
    return part;
  }
  const mimeType = normalizeMimeType(blob.mimeType) || 'application/octet-stream';
  const data = blob.data ?? '';
  if (data.length === 0) return { text: `[Artifact: ${JSON.stringify(name)}, type: ${JSON.stringify(mimeType)}. No inline data was provided.]` };
  const size = base64ByteLength(data);
  if (isInlineMimeType(mimeType))
    return size <= MAX_INLINE_ARTIFACT_BYTES
      ? part
      : { text: `[Artifact: ${JSON.stringify(name)}, type: ${JSON.stringify(mimeType)}, size: ${size} bytes: too large to send to the model (limit ${MAX_INLINE_ARTIFACT_BYTES} bytes).]` };
  if (isTextMimeType(mimeType)) {
    if (size <= MAX_TEXT_ARTIFACT_BYTES) return { text: Buffer.from(data, 'base64').toString('utf8') };
    const head = headBytes(data, TEXT_ARTIFACT_HEAD_BYTES);
    return {
      text: `${head.toString('utf8')}\n[Artifact ${JSON.stringify(name)} is ${size} bytes; the first ${head.length} bytes are shown above. Ask the user, or a tool that can search it, for the rest.]`,
    };
  }
  return {
    text: `[Binary artifact: ${JSON.stringify(name)}, type: ${JSON.stringify(mimeType)}, size: ${size} bytes. Content cannot be displayed inline.]`,
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

/**
 * The first `limit` bytes of base64 data, decoding only that much (4 characters carry 3 bytes;
 * whitespace such as MIME line breaks is skipped), cut back to a whole UTF-8 character.
 */
function headBytes(data: string, limit: number): Buffer {
  const wanted = Math.ceil(limit / 3) * 4;
  let chars = '';
  // Whitespace takes room: read on, a slice at a time, until there are enough data characters.
  for (let start = 0; chars.length < wanted && start < data.length; start += wanted)
    chars += data.slice(start, start + wanted).replace(/\s+/g, '');
  const bytes = Buffer.from(chars.slice(0, wanted), 'base64').subarray(0, limit);
  let cut = bytes.length;
  // Back off past continuation bytes (10xxxxxx) to the start of the character the cut would split.
  if (cut === limit) {
    let start = cut;
    while (start > 0 && start > cut - 4 && (bytes[start - 1]! & 0xc0) === 0x80) start--;
    const lead = bytes[start - 1];
    if (lead !== undefined && lead >= 0xc0) {
      const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
      if (cut - (start - 1) < length) cut = start - 1;
    }
  }
  return bytes.subarray(0, cut);
}

/** The first `limit` UTF-16 units of a text, never ending inside a surrogate pair. */
function headChars(text: string, limit: number): string {
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}

/** The number of bytes a base64 string holds, without decoding it. */
function base64ByteLength(data: string): number {
  const clean = data.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.floor((clean.length * 3) / 4) - padding;
}
