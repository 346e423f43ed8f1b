import { pendingConfirmations, type PendingConfirmation, type PendingConfirmationsOptions, type PendingConfirmationsSession } from '@adkit/confirmation';
import { pendingLongRunningCalls, type PendingLongRunningCall } from '@adkit/flow';

export type { PendingLongRunningCall } from '@adkit/flow';

/** What a session waits for: confirmations for the user, and long-running calls for someone else. */
export interface PendingWork {
  confirmations: PendingConfirmation[];
  longRunning: PendingLongRunningCall[];
}

/**
 * What the session still waits for: confirmations (verified as approving checks them, with the
 * runner's `confirmationSecret` when it has one), and long-running calls (as the core defines them).
 */
export async function pendingWork(session: PendingConfirmationsSession | undefined, options: PendingConfirmationsOptions = {}): Promise<PendingWork> {
  if (!session) return { confirmations: [], longRunning: [] };
  return { confirmations: await pendingConfirmations(session, options), longRunning: pendingLongRunningCalls(session.events) };
}

/** How many things wait. */
export function pendingCount(work: PendingWork): number {
  return work.confirmations.length + work.longRunning.length;
}
