import { cloneData } from '../content/cloneData.js';
import type { Session } from '../sessions/session.js';
import type { MemoryEntry } from './memoryService.js';

/**
 * What a memory service remembers of a session: one entry per event with text (the model's
 * thoughts left out), carrying the event's id, content, author and time. Every memory service can
 * start from it, so a vector store remembers what the in-memory one does:
 *
 * ```ts
 * async addSessionToMemory(session) {
 *   const entries = memoryEntriesFromSession(session);
 *   await store.upsert(entries.map((entry) => ({ id: entry.id, vector: await embed(memoryEntryText(entry)), entry })));
 * }
 * ```
 */
export function memoryEntriesFromSession(session: Session): MemoryEntry[] {
  const entries: MemoryEntry[] = [];
  for (const event of session.events) {
    const parts = (event.content?.parts ?? []).filter((part) => part.thought !== true);
    if (!parts.some((part) => typeof part.text === 'string' && part.text.length > 0)) continue;
    const entry: MemoryEntry = { id: event.id, content: cloneData({ ...event.content, parts }), author: event.author, timestamp: event.timestamp };
    entries.push(entry);
  }
  return entries;
}

/**
 * A memory's text: its non-empty text parts (thoughts left out) joined by one space (BT-5). What
 * `preload_memory` shows the model, and what a vector store would embed.
 */
export function memoryEntryText(entry: MemoryEntry): string {
  return (entry.content?.parts ?? [])
    .filter((part) => part.thought !== true && typeof part.text === 'string' && part.text.length > 0)
    .map((part) => part.text)
    .join(' ');
}
