import { pendingConfirmationRequests, type Event, type FunctionCall } from '@adkit/flow';

/** A confirmation a user has not answered yet, for a UI to show. */
export interface PendingConfirmation {
  /** The `adk_request_confirmation` call; reply to its id. */
  call: FunctionCall;
  /** The tool call waiting for approval, exactly as the model made it. */
  originalCall: FunctionCall;
  /** The agent that asked. */
  author: string;
  hint?: string;
  payload?: unknown;
}

/**
 * The confirmation requests in a session's events that are still waiting for the user, oldest
 * first. Only requests the flow created are listed — a model's own call to
 * `adk_request_confirmation`, or a stored request edited by hand, never is — and a request whose
 * call was already answered (approved and run, or rejected) is not pending any more. The flow's
 * resume path uses the same definition, so what is listed here is what a reply can resume.
 */
export function pendingConfirmations(events: readonly Event[]): PendingConfirmation[] {
  return pendingConfirmationRequests(events).map((request) => {
    const entry: PendingConfirmation = { call: request.requestCall, originalCall: request.originalCall, author: request.author };
    if (typeof request.confirmation.hint === 'string') entry.hint = request.confirmation.hint;
    if (request.confirmation.payload !== undefined) entry.payload = request.confirmation.payload;
    return entry;
  });
}
