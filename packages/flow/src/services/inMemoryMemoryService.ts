import { cloneData } from '../content/cloneData.js';
import type { Session } from '../sessions/session.js';
import type { MemoryEntry, MemoryService, SearchMemoryRequest, SearchMemoryResponse } from './memoryService.js';

/**
 * Memory by keyword match, kept in this process: an event matches when it shares a word with the
 * query (case-insensitive). Good for tests and demos; use a vector store in production.
 */
export class InMemoryMemoryService implements MemoryService {
  private readonly bySession = new Map<string, { appName: string; userId: string; entries: MemoryEntry[] }>();

  async addSessionToMemory(session: Session): Promise<void> {
    const entries: MemoryEntry[] = [];
    for (const event of session.events) {
      if (!event.content?.parts?.some((p) => p.text)) continue;
      entries.push({ id: event.id, content: cloneData(event.content), author: event.author, timestamp: event.timestamp });
    }
    this.bySession.set(`${session.appName}\u0000${session.userId}\u0000${session.id}`, {
      appName: session.appName,
      userId: session.userId,
      entries,
    });
  }

  async searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse> {
    const queryWords = words(request.query);
    const memories: MemoryEntry[] = [];
    if (queryWords.size === 0) return { memories };
    for (const stored of this.bySession.values()) {
      if (stored.appName !== request.appName || stored.userId !== request.userId) continue;
      for (const entry of stored.entries) {
        const text = (entry.content.parts ?? []).map((p) => p.text ?? '').join(' ');
        for (const word of words(text))
          if (queryWords.has(word)) {
            memories.push(cloneData(entry));
            break;
          }
      }
    }
    return { memories };
  }
}

function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []));
}
