import { pendingConfirmations, type PendingConfirmation } from '@adkit/confirmation';
import { pendingLongRunningCalls, type Event, type PendingLongRunningCall } from '@adkit/flow';

/** What a session waits for. */
export interface PendingCalls {
  confirmations: PendingConfirmation[];
  longRunning: PendingLongRunningCall[];
}

/** What the session's events still wait for: confirmations, and long-running calls (both as the core defines them). */
export function pendingCalls(events: readonly Event[]): PendingCalls {
  return { confirmations: pendingConfirmations(events), longRunning: pendingLongRunningCalls(events) };
}
