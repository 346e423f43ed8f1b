import type { CallbackContext } from './callbackContext.js';
import type { FunctionCall } from '../content/content.js';
import type { ToolConfirmation } from '../content/eventActions.js';
import type { SearchMemoryResponse } from '../services/memoryService.js';

/** A progress report from a running tool call. */
export interface ProgressReport {
  message?: string;
  /** Completion between 0 and 1. */
  fraction?: number;
}

/**
 * What a tool gets for one call (TC-10): its call id and fresh actions, state, artifacts, memory,
 * the run's signal, and the confirmation protocol. Session internals (events, the agent, the run
 * config) are deliberately absent (TC-11).
 */
export interface ToolContext extends CallbackContext {
  readonly functionCallId: string;
  /** The call being answered (name and arguments as the model sent them). */
  readonly functionCall?: FunctionCall;
  /** The confirmation given on resume; `undefined` on a first call (HC-8). */
  readonly toolConfirmation?: ToolConfirmation;
  /** Searches the user's memory; throws when the runner has no memory service. */
  searchMemory(query: string): Promise<SearchMemoryResponse>;
  /**
   * Asks the user to approve this call (HC-1): records the request on the actions and skips
   * summarization. It does not mean approval; answer the call with an error or a pending status.
   */
  requestConfirmation(request?: { hint?: string; payload?: unknown }): void;
  /** Emits a partial progress event tagged with this call's id (never persisted). */
  reportProgress(progress: ProgressReport): void;
}
