import type { SearchMemoryResponse } from '../services/memoryService.js';
import type { CallbackContext } from './callbackContext.js';

/**
 * What a request processor (`processRequest`) gets each model step: state writes (saved with the
 * step's model event), artifacts, memory search, the run's signal and per-run context. It answers
 * no function call, so it has no call id and cannot ask for confirmation.
 */
export interface RequestContext extends CallbackContext {
  /** Searches the user's memory; throws when the runner has no memory service. */
  searchMemory(query: string): Promise<SearchMemoryResponse>;
}
