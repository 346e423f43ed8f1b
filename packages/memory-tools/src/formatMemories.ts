import { type MemoryEntry } from '@adkit/flow';
import { memoryEntryText } from '@adkit/flow/store';

/**
 * The past-conversations text of `preload_memory` (BT-5): for each memory with text, a line
 * `Time: <RFC 3339>` when it has a valid time, then `<author>: <text>` (or just the text), all joined
 * by newlines. Memories without text are skipped; no memories give `''`.
 */
export function formatMemories(memories: readonly MemoryEntry[]): string {
  const lines: string[] = [];
  for (const memory of memories) {
    const text = memoryEntryText(memory);
    if (!text) continue;
    const time = rfc3339(memory.timestamp);
    if (time !== undefined) lines.push(`Time: ${time}`);
    lines.push(memory.author ? `${memory.author}: ${text}` : text);
  }
  return lines.join('\n');
}

/**
 * Milliseconds since the epoch as RFC 3339 in UTC, whole seconds (Go's `time.RFC3339`);
 * `undefined` for no time or one that is not a date (NaN, out of range).
 */
export function rfc3339(milliseconds: number | undefined): string | undefined {
  if (typeof milliseconds !== 'number') return undefined;
  const date = new Date(milliseconds);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
