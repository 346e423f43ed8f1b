import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { parseMediaType } from './mediaType.js';

/** An image or audio block of a result, kept for the model as inline data (see `inlineMedia.ts`). */
export interface McpMedia {
  readonly kind: 'image' | 'audio';
  readonly mimeType: string;
  /** Base64, as the server sent it. */
  readonly data: string;
}

/** A result's content as text for the model (MCP-8), and the media it carried. */
export interface FormattedContent {
  readonly text: string;
  readonly media: McpMedia[];
}

interface Piece {
  text: string;
  plain: boolean;
}

/**
 * Formats MCP content blocks as one text (MCP-8): text blocks as they are, joined without a
 * separator; every other block as a bracketed label (`[MCP image: mimeType="image/png", size=3 bytes]`,
 * resource links with their attributes, embedded resources with their text or decodable blob),
 * with a newline between a label and its neighbours unless one is already there. Image and audio
 * blocks are also returned as `media`, so they can reach models that take them as inline data.
 */
export function formatContent(blocks: readonly unknown[] | undefined): FormattedContent {
  const media: McpMedia[] = [];
  if (!blocks || blocks.length === 0) return { text: '', media };
  // One block, what most results hold: its text as it is, nothing to join (#24).
  if (blocks.length === 1) return { text: formatBlock(blocks[0], media).text, media };
  const pieces: Piece[] = [];
  for (const block of blocks) {
    const piece = formatBlock(block, media);
    if (piece.text.length > 0) pieces.push(piece);
  }
  let text = '';
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const previous = pieces[i - 1];
    if (
      previous &&
      (!previous.plain || !piece.plain) &&
      !previous.text.endsWith('\n') &&
      !piece.text.startsWith('\n')
    )
      text += '\n';
    text += piece.text;
  }
  return { text, media };
}

function formatBlock(value: unknown, media: McpMedia[]): Piece {
  if (typeof value !== 'object' || value === null) return label('[MCP content: unavailable]');
  const block = value as Partial<ContentBlock> & { type?: unknown };
  switch (block.type) {
    case 'text': {
      const text = (block as { text?: unknown }).text;
      return typeof text === 'string' ? { text, plain: true } : label('[MCP text content: unavailable]');
    }
    case 'image':
    case 'audio': {
      const { data, mimeType } = block as { data?: unknown; mimeType?: unknown };
      if (typeof data !== 'string') return label(`[MCP ${block.type}: unavailable]`);
      const type = typeof mimeType === 'string' ? mimeType : '';
      media.push({ kind: block.type, mimeType: type, data });
      return label(mediaLabel(block.type, type, data));
    }
    case 'resource_link':
      return label(resourceLinkLabel(block as Record<string, unknown>));
    case 'resource': {
      const resource = (block as { resource?: unknown }).resource;
      if (typeof resource !== 'object' || resource === null) return label('[MCP embedded resource: unavailable]');
      return label(embeddedResource(resource as Record<string, unknown>));
    }
    default:
      return label('[MCP content: unsupported]');
  }
}

function label(text: string): Piece {
  return { text, plain: false };
}

/** `[MCP image: mimeType="image/png", size=5 bytes]`, the mime type left out when empty. */
export function mediaLabel(kind: 'image' | 'audio', mimeType: string, data: string): string {
  const attributes = mimeType ? `mimeType=${quote(mimeType)}, ` : '';
  return `[MCP ${kind}: ${attributes}size=${base64Size(data)} bytes]`;
}

function resourceLinkLabel(link: Record<string, unknown>): string {
  const attributes: string[] = [];
  for (const key of ['uri', 'mimeType', 'name', 'title', 'description'] as const) {
    const value = link[key];
    if (typeof value === 'string' && value.length > 0) attributes.push(`${key}=${quote(value)}`);
  }
  if (typeof link.size === 'number' && Number.isFinite(link.size)) attributes.push(`size=${link.size} bytes`);
  return attributes.length > 0 ? `[MCP resource link: ${attributes.join(', ')}]` : '[MCP resource link]';
}

/**
 * An embedded resource (or one read with `resources/read`): its label, then its text or its blob
 * decoded when it is text (MCP-8's media types and charsets). The label gives a blob's size only
 * when the blob is not what the model reads: beside a text, or as metadata for a blob that cannot
 * be shown (binary, an unreadable charset, a malformed media type).
 */
export function embeddedResource(resource: Record<string, unknown>): string {
  const attributes: string[] = [];
  const uri = typeof resource.uri === 'string' ? resource.uri : '';
  const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : '';
  if (uri) attributes.push(`uri=${quote(uri)}`);
  if (mimeType) attributes.push(`mimeType=${quote(mimeType)}`);
  const blob = typeof resource.blob === 'string' && resource.blob.length > 0 ? resource.blob : undefined;
  const text = typeof resource.text === 'string' && resource.text.length > 0 ? resource.text : undefined;
  const body = text ?? (blob !== undefined ? decodeTextBlob(blob, mimeType) : undefined);
  if (blob !== undefined && (text !== undefined || body === undefined)) attributes.push(`size=${base64Size(blob)} bytes`);
  const head = `[MCP embedded resource${attributes.length > 0 ? `: ${attributes.join(', ')}` : ''}]`;
  return body !== undefined && body.length > 0 ? `${head}\n${body}` : head;
}

/** A Go-style quoted string (`"a\"b"`): JSON's quoting, which is what the model reads. */
function quote(value: string): string {
  return JSON.stringify(value);
}

/** The number of bytes a base64 string decodes to, without decoding it. */
export function base64Size(data: string): number {
  let length = data.length;
  while (length > 0 && (data.charCodeAt(length - 1) === 61 /* = */ || isSpace(data.charCodeAt(length - 1)))) length--;
  let spaces = 0;
  for (let i = 0; i < length; i++) if (isSpace(data.charCodeAt(i))) spaces++;
  return Math.floor(((length - spaces) * 3) / 4);
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

const TEXT_APPLICATION_TYPES = new Set([
  'application/json',
  'application/javascript',
  'application/toml',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/x-yaml',
  'application/yaml',
]);

/**
 * The blob as text when its media type says text (`text/*`, `*+json`, `*+xml`, JSON, YAML, …) and
 * its charset, if any, is UTF-8 (valid) or ASCII (every byte below 0x80); `undefined` otherwise,
 * including for a malformed media type or an ambiguous charset (MCP-8, see `parseMediaType`).
 */
export function decodeTextBlob(blob: string, mimeType: string): string | undefined {
  const parsed = parseMediaType(mimeType);
  if (!parsed) return undefined;
  const type = parsed.essence;
  const textual =
    type.startsWith('text/') || type.endsWith('+json') || type.endsWith('+xml') || TEXT_APPLICATION_TYPES.has(type);
  if (!textual) return undefined;
  const charset = parsed.charset;
  const bytes = Buffer.from(blob, 'base64');
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return undefined;
    }
  }
  if (charset === 'us-ascii' || charset === 'ascii') {
    for (const byte of bytes) if (byte >= 0x80) return undefined;
    return bytes.toString('latin1');
  }
  return undefined;
}
