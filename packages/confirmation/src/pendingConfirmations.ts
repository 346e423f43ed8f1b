import { getFunctionCalls, getFunctionResponses, type Event, type FunctionCall, type ToolConfirmation } from '@adkit/flow';
import { REQUEST_CONFIRMATION, originalCallFrom } from './protocol.js';

/** A confirmation a user has not answered yet, for a UI to show. */
export interface PendingConfirmation {
  /** The `adk_request_confirmation` call; reply to its id. */
  call: FunctionCall;
  /** The tool call waiting for approval. */
  originalCall: FunctionCall;
  /** The agent that asked. */
  author: string;
  hint?: string;
  payload?: unknown;
}

/**
 * The confirmation requests in a session's events that no later user event answers, oldest first.
 */
export function pendingConfirmations(events: readonly Event[]): PendingConfirmation[] {
  const answered = new Set<string>();
  for (const event of events)
    if (event.author === 'user')
      for (const response of getFunctionResponses(event))
        if (response.name === REQUEST_CONFIRMATION && response.id) answered.add(response.id);

  const pending: PendingConfirmation[] = [];
  for (const event of events) {
    if (event.author === 'user') continue;
    for (const call of getFunctionCalls(event)) {
      if (call.name !== REQUEST_CONFIRMATION || !call.id || answered.has(call.id)) continue;
      const originalCall = originalCallFrom(call);
      if (!originalCall) continue;
      const confirmation = (call.args?.toolConfirmation ?? {}) as Partial<ToolConfirmation>;
      const entry: PendingConfirmation = { call, originalCall, author: event.author };
      if (typeof confirmation.hint === 'string') entry.hint = confirmation.hint;
      if (confirmation.payload !== undefined) entry.payload = confirmation.payload;
      pending.push(entry);
    }
  }
  return pending;
}
