import type { Part } from '@adkit/flow';
import { INLINE_IMAGE_TYPES } from './displayEvent.js';

/** Types served as themselves for viewing; anything else is only ever a download. */
const VIEWABLE_TYPES: ReadonlySet<string> = new Set([...INLINE_IMAGE_TYPES, 'text/plain', 'application/json', 'text/markdown', 'text/csv']);

/**
 * The HTTP response for an artifact: text parts as UTF-8 text, inline data decoded. Only images
 * and plain text types are served for viewing, and every response is sandboxed (`CSP: sandbox`,
 * `nosniff`), so an artifact a tool saved as `text/html` or SVG cannot run script in the page's
 * origin; with `download` (or an unsafe type) it comes as an attachment.
 */
export function artifactResponse(part: Part, filename: string, download: boolean): Response {
  let body: Uint8Array | string;
  let type: string;
  if (typeof part.text === 'string') {
    body = part.text;
    type = 'text/plain';
  } else if (part.inlineData && typeof part.inlineData.data === 'string') {
    body = Buffer.from(part.inlineData.data, 'base64');
    type = typeof part.inlineData.mimeType === 'string' ? part.inlineData.mimeType.toLowerCase().split(';')[0]!.trim() : '';
  } else {
    body = JSON.stringify(part.fileData ?? part, null, 2);
    type = 'application/json';
  }
  const viewable = VIEWABLE_TYPES.has(type);
  const headers = new Headers({
    'content-type': viewable ? (type.startsWith('image/') ? type : `${type === 'application/json' ? 'text/plain' : type}; charset=utf-8`) : 'application/octet-stream',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "sandbox; default-src 'none'",
    'cache-control': 'no-store',
  });
  if (download || !viewable) headers.set('content-disposition', contentDisposition(filename));
  return new Response(typeof body === 'string' ? body : new Uint8Array(body), { status: 200, headers });
}

/** `attachment` with an ASCII fallback name and the exact name (RFC 6266 / 5987). */
function contentDisposition(filename: string): string {
  const base = filename.split('/').pop() || 'artifact';
  const ascii = base.replace(/[^A-Za-z0-9._ -]/g, '_').slice(0, 150) || 'artifact';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}`;
}
