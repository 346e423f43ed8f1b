import { pendingConfirmations, type PendingConfirmation } from '@adkit/confirmation';
import { pendingCredentialRequestsIn, pendingLongRunningCalls, type CredentialRequest, type Event, type PendingLongRunningCall } from '@adkit/flow';

/** What a session waits for. */
export interface PendingCalls {
  confirmations: PendingConfirmation[];
  longRunning: PendingLongRunningCall[];
  /** Consents a tool waits for (`adk_request_credential`). */
  credentials: CredentialRequest[];
}

/** What the session's events still wait for: confirmations, long-running calls and consents (as the core defines them). */
export function pendingCalls(events: readonly Event[]): PendingCalls {
  return { confirmations: pendingConfirmations(events), longRunning: pendingLongRunningCalls(events), credentials: pendingCredentialRequestsIn(events) };
}
