import { pendingConfirmations, type PendingConfirmation } from '@adkit/confirmation';
import { pendingCredentialRequestsIn, pendingLongRunningCalls, type CredentialRequest, type Event, type PendingLongRunningCall, type Session } from '@adkit/flow';

/** What a session waits for. */
export interface PendingCalls {
  confirmations: PendingConfirmation[];
  longRunning: PendingLongRunningCall[];
  /** Consents a tool waits for (`adk_request_credential`). */
  credentials: CredentialRequest[];
}

/**
 * What the session still waits for: confirmations (verified as the runner's resume checks them,
 * with its `confirmationSecret`: only what an approval would resume), long-running calls and
 * consents (as the core defines them). `events` are the session's events the page considers.
 */
export async function pendingCalls(session: Session, events: readonly Event[], confirmationSecret?: string): Promise<PendingCalls> {
  return {
    confirmations: await pendingConfirmations({ appName: session.appName, userId: session.userId, id: session.id, events }, { confirmationSecret }),
    longRunning: pendingLongRunningCalls(events),
    credentials: pendingCredentialRequestsIn(events),
  };
}
