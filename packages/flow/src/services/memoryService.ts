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
}

export interface SearchMemoryResponse {
  memories: MemoryEntry[];
}

/** Long-term memory across sessions. Implementations: `InMemoryMemoryService` here. */
export interface MemoryService {
  addSessionToMemory(session: Session): Promise<void>;
  searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse>;
}
