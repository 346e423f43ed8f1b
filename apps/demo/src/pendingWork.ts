import { pendingConfirmations, type PendingConfirmation, type PendingConfirmationsOptions, type PendingConfirmationsSession } from '@adkit/confirmation';
import { pendingCredentialRequests, type PendingCredentialRequest } from '@adkit/auth';
import { pendingLongRunningCalls, type PendingLongRunningCall } from '@adkit/flow';

export type { PendingLongRunningCall } from '@adkit/flow';

/** What a session waits for: confirmations and consents for the user, and long-running calls for someone else. */
export interface PendingWork {
  confirmations: PendingConfirmation[];
  longRunning: PendingLongRunningCall[];
  /** Consents a tool waits for (`adk_request_credential`): the link to send the user to. */
  credentials: PendingCredentialRequest[];
}

/**
 * What the session still waits for: confirmations (verified as approving checks them, with the
 * runner's `confirmationSecret` when it has one), long-running calls (as the core defines them),
 * and consents (`pendingCredentialRequests`: only requests the flow made).
 */
export async function pendingWork(session: PendingConfirmationsSession | undefined, options: PendingConfirmationsOptions = {}): Promise<PendingWork> {
  if (!session) return { confirmations: [], longRunning: [], credentials: [] };
  return {
    confirmations: await pendingConfirmations(session, options),
    longRunning: pendingLongRunningCalls(session.events),
    credentials: pendingCredentialRequests(session.events),
  };
}

/** How many things wait. */
export function pendingCount(work: PendingWork): number {
  return work.confirmations.length + work.longRunning.length + work.credentials.length;
}
