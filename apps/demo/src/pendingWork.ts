import { pendingConfirmations, type PendingConfirmation } from '@adkit/confirmation';
import { REQUEST_CONFIRMATION_FUNCTION, getFunctionCalls, getFunctionResponses, type Event, type FunctionCall } from '@adkit/flow';

/** A long-running call still waiting for its real answer from outside (a manager, a ticket system). */
export interface PendingLongRunningCall {
  call: FunctionCall;
  /** What the tool answered for now (`{status: "pending", …}`), if anything. */
  interim?: Record<string, unknown>;
}

/** What a session waits for: confirmations for the user, and long-running calls for someone else. */
export interface PendingWork {
  confirmations: PendingConfirmation[];
  longRunning: PendingLongRunningCall[];
}

/**
 * What the session's events still wait for. A long-running call counts until an answer authored
 * by the user (the client) arrives for its id; the tool's own interim answer does not end it.
 * Confirmation requests are left to `pendingConfirmations`, which checks that the flow made them.
 */
export function pendingWork(events: readonly Event[]): PendingWork {
  const waiting = new Map<string, PendingLongRunningCall>();
  for (const event of events) {
    if (event.partial) continue;
    for (const call of getFunctionCalls(event))
      if (call.id && call.name !== REQUEST_CONFIRMATION_FUNCTION && event.longRunningToolIds?.includes(call.id)) waiting.set(call.id, { call });
    for (const response of getFunctionResponses(event)) {
      if (!response.id || !waiting.has(response.id)) continue;
      // The client answered it, or the tool failed: nothing waits any more.
      if (event.author === 'user' || Object.hasOwn(response.response ?? {}, 'error')) waiting.delete(response.id);
      else waiting.get(response.id)!.interim = response.response;
    }
  }
  const confirmations = pendingConfirmations(events);
  // A call paused for a confirmation (an agent tool whose child asks) waits for that confirmation.
  for (const { originalCall } of confirmations) if (originalCall.id) waiting.delete(originalCall.id);
  return { confirmations, longRunning: [...waiting.values()] };
}

/** How many things wait. */
export function pendingCount(work: PendingWork): number {
  return work.confirmations.length + work.longRunning.length;
}
