import type { Content } from '../content/content.js';
import type { Session } from '../sessions/session.js';

/** One remembered piece of a past conversation. */
export interface MemoryEntry {
  id?: string;
  content: Content;
  author?: string;
  /** Milliseconds since the epoch. */
  timestamp?: number;
  customMetadata?: Record<string, unknown>;
}

export interface SearchMemoryRequest {
  appName: string;
  userId: string;
  query: string;
  /** Aborts when the run is cancelled; a service that calls out (a vector store) passes it on. */
  signal?: AbortSignal;
}

export interface SearchMemoryResponse {
  memories: MemoryEntry[];
}

/**
 * Long-term memory across sessions, searched by `preload_memory` and `load_memory`
 * (`@adkit/memory-tools`) through `ctx.searchMemory(query)`. Implementations:
 * `InMemoryMemoryService` here (keyword match). To plug in a vector store, implement these two
 * methods: `addSessionToMemory` embeds `memoryEntriesFromSession(session)` (by
 * `memoryEntryText`) and upserts them by id, replacing what was stored for that session;
 * `searchMemory` embeds the query and returns the nearest entries of that app and user, best
 * first. The runner adds each finished session when `addSessionsToMemory` is set.
 */
export interface MemoryService {
  /** Remembers the session; adding the same session again replaces what was remembered of it. */
  addSessionToMemory(session: Session): Promise<void>;
  /** The memories of `appName`/`userId` relevant to `query`, best first; never another user's. */
  searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse>;
}
