import { pendingConfirmations, type PendingConfirmation } from '@adkit/confirmation';
import { pendingLongRunningCalls, type Event, type PendingLongRunningCall } from '@adkit/flow';

export type { PendingLongRunningCall } from '@adkit/flow';

/** What a session waits for: confirmations for the user, and long-running calls for someone else. */
export interface PendingWork {
  confirmations: PendingConfirmation[];
  longRunning: PendingLongRunningCall[];
}

/** What the session's events still wait for: confirmations, and long-running calls (as the core defines them). */
export function pendingWork(events: readonly Event[]): PendingWork {
  return { confirmations: pendingConfirmations(events), longRunning: pendingLongRunningCalls(events) };
}

/** How many things wait. */
export function pendingCount(work: PendingWork): number {
  return work.confirmations.length + work.longRunning.length;
}
