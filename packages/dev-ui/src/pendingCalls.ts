import { pendingConfirmations, type PendingConfirmation } from '@adkit/confirmation';
import { REQUEST_CONFIRMATION_FUNCTION, getFunctionCalls, getFunctionResponses, type Event, type FunctionCall } from '@adkit/flow';

/** A long-running call still waiting for its real answer from outside (a person, a ticket system). */
export interface PendingLongRunningCall {
  call: FunctionCall;
  /** The agent that made the call. */
  author: string;
  /** What the tool answered for now (`{status: "pending", …}`), if anything. */
  interim?: Record<string, unknown>;
}

/** What a session waits for. */
export interface PendingCalls {
  confirmations: PendingConfirmation[];
  longRunning: PendingLongRunningCall[];
}

/**
 * What the session's events still wait for: confirmations (`pendingConfirmations`, so only
 * requests the flow made), and long-running calls until an answer authored by the user (the
 * client) arrives for their id — the tool's own interim answer does not end the wait, an error does.
 * A call paused for a confirmation (an agent tool whose child asks) waits for that confirmation.
 */
export function pendingCalls(events: readonly Event[]): PendingCalls {
  const waiting = new Map<string, PendingLongRunningCall>();
  for (const event of events) {
    if (event.partial) continue;
    for (const call of getFunctionCalls(event))
      if (call.id && call.name !== REQUEST_CONFIRMATION_FUNCTION && event.longRunningToolIds?.includes(call.id))
        waiting.set(call.id, { call, author: event.author });
    for (const response of getFunctionResponses(event)) {
      const entry = response.id ? waiting.get(response.id) : undefined;
      if (!entry) continue;
      if (event.author === 'user' || Object.hasOwn(response.response ?? {}, 'error')) waiting.delete(response.id!);
      else if (response.response) entry.interim = response.response;
    }
  }
  const confirmations = pendingConfirmations(events);
  for (const { originalCall } of confirmations) if (originalCall.id) waiting.delete(originalCall.id);
  return { confirmations, longRunning: [...waiting.values()] };
}
