import {
  pendingConfirmationRequests,
  verifiedPendingConfirmationRequests,
  type ConfirmationRequest,
  type Event,
  type FunctionCall,
} from '@adkit/flow';

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

/** A session as `getSession` returns it: the ids its requests are bound to, and its events. */
export interface PendingConfirmationsSession {
  readonly appName: string;
  readonly userId: string;
  readonly id: string;
  readonly events: readonly Event[];
}

/** Options of `pendingConfirmations(session, options)`. */
export interface PendingConfirmationsOptions {
  /**
   * The runner's `confirmationSecret`, when it has one. Requests are checked with it as the
   * resume path checks them; without it, requests the runner keyed would all be left out.
   */
  confirmationSecret?: string;
}

/**
 * The confirmation requests in a session that are still waiting for the user, oldest first, as
 * the runner would resume them: only requests the flow created are listed — a model's own call
 * to `adk_request_confirmation`, or a stored request edited by hand, never is — and each one's
 * digest is checked for this app, user and session (with the runner's `confirmationSecret`), so
 * a request edited consistently in the store, or copied from another user's session, is not
 * listed either. A request whose call was already answered (approved and run, or rejected) is
 * not pending any more. What is listed is exactly what an approval resumes.
 *
 * ```ts
 * const session = await sessionService.getSession({ appName, userId, sessionId });
 * const [request] = await pendingConfirmations(session!, { confirmationSecret });
 * ```
 */
export function pendingConfirmations(
  session: PendingConfirmationsSession,
  options?: PendingConfirmationsOptions,
): Promise<PendingConfirmation[]>;
/**
 * @deprecated Pass the session (`pendingConfirmations(session, {confirmationSecret})`): from the
 * events alone the digests cannot be checked (they bind the app, user and session, and the
 * secret), so this form may list a request that approving then refuses.
 */
export function pendingConfirmations(events: readonly Event[]): PendingConfirmation[];
export function pendingConfirmations(
  source: PendingConfirmationsSession | readonly Event[],
  options: PendingConfirmationsOptions = {},
): Promise<PendingConfirmation[]> | PendingConfirmation[] {
  if (Array.isArray(source)) return pendingConfirmationRequests(source as readonly Event[]).map(toPending);
  const session = source as PendingConfirmationsSession;
  return verifiedPendingConfirmationRequests(session, options.confirmationSecret).then((requests) => requests.map(toPending));
}

function toPending(request: ConfirmationRequest): PendingConfirmation {
  const entry: PendingConfirmation = { call: request.requestCall, originalCall: request.originalCall, author: request.author };
  if (typeof request.confirmation.hint === 'string') entry.hint = request.confirmation.hint;
  if (request.confirmation.payload !== undefined) entry.payload = request.confirmation.payload;
  return entry;
}
