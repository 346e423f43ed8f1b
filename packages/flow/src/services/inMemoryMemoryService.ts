import { cloneData } from '../content/cloneData.js';
import type { Session } from '../sessions/session.js';
import { memoryEntriesFromSession, memoryEntryText } from './memoryEntries.js';
import type { MemoryEntry, MemoryService, SearchMemoryRequest, SearchMemoryResponse } from './memoryService.js';

/**
 * Memory by keyword match, kept in this process: an event's text (`memoryEntriesFromSession`)
 * matches when it shares a word with the query (case-insensitive). Good for tests and demos; in
 * production implement `MemoryService` over a vector store (see `memoryEntriesFromSession`).
 */
export class InMemoryMemoryService implements MemoryService {
  // Each entry with its words, found once when the session is added rather than on every search.
  private readonly bySession = new Map<string, { appName: string; userId: string; entries: { entry: MemoryEntry; words: Set<string> }[] }>();

  async addSessionToMemory(session: Session): Promise<void> {
    this.bySession.set(`${session.appName}\u0000${session.userId}\u0000${session.id}`, {
      appName: session.appName,
      userId: session.userId,
      entries: memoryEntriesFromSession(session).map((entry) => ({ entry, words: words(memoryEntryText(entry)) })),
    });
  }

  async searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse> {
    const queryWords = words(request.query);
    const memories: MemoryEntry[] = [];
    if (queryWords.size === 0) return { memories };
    for (const stored of this.bySession.values()) {
      if (stored.appName !== request.appName || stored.userId !== request.userId) continue;
      for (const { entry, words: entryWords } of stored.entries)
        for (const word of queryWords)
          if (entryWords.has(word)) {
            memories.push(cloneData(entry));
            break;
          }
    }
    return { memories };
  }
}

function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []));
}
