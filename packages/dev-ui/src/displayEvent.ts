import type { Event, Part } from '@adkit/flow';
import { displayValue, setData } from './displayValue.js';

/** Images the page may show inline (as `data:` URLs in an `<img>`, which runs no script). */
export const INLINE_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Inline images up to this many base64 characters travel with the event; larger ones as a size. */
const MAX_INLINE_IMAGE_CHARS = 400_000;
const MAX_PARTS = 1_000;
const MAX_NESTED_EVENTS = 3;

/**
 * An event as the page gets it: the same JSON shape, cut to displayable size (`displayValue`),
 * inline data replaced by its type and size (plus a `dataUrl` for a small image of a safe type),
 * and forwarded child events (`toolProgress.event`) kept a few levels deep.
 */
export function displayEvent(event: Event, depth = 0): Record<string, unknown> {
  const { content, toolProgress, ...rest } = event;
  const shown = displayValue(rest) as Record<string, unknown>;
  if (content) {
    const parts = content.parts ?? [];
    const shownParts = parts.slice(0, MAX_PARTS).map(displayPart);
    if (parts.length > MAX_PARTS) shownParts.push({ text: `[${parts.length - MAX_PARTS} more parts not shown]` });
    setData(shown, 'content', { role: displayValue(content.role), parts: shownParts });
  }
  if (toolProgress) {
    const { event: child, ...progress } = toolProgress;
    const shownProgress = displayValue(progress) as Record<string, unknown>;
    if (child && typeof child === 'object' && depth < MAX_NESTED_EVENTS) setData(shownProgress, 'event', displayEvent(child, depth + 1));
    setData(shown, 'toolProgress', shownProgress);
  }
  return shown;
}

function displayPart(part: Part): Record<string, unknown> {
  if (!part || typeof part !== 'object') return { text: String(displayValue(part)) };
  const { inlineData, ...rest } = part;
  const shown = displayValue(rest) as Record<string, unknown>;
  if (inlineData && typeof inlineData === 'object') {
    const mimeType = typeof inlineData.mimeType === 'string' ? inlineData.mimeType.slice(0, 200) : 'application/octet-stream';
    const data = typeof inlineData.data === 'string' ? inlineData.data : '';
    const summary: Record<string, unknown> = { mimeType, bytes: base64Bytes(data) };
    if (INLINE_IMAGE_TYPES.has(mimeType) && data.length <= MAX_INLINE_IMAGE_CHARS && isBase64(data))
      summary.dataUrl = `data:${mimeType};base64,${data}`;
    setData(shown, 'inlineData', summary);
  }
  return shown;
}

/** How many bytes a base64 text decodes to. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function isBase64(data: string): boolean {
  return data.length > 0 && data.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(data);
}
