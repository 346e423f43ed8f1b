import { pendingCredentialRequestsIn, type AuthConfig, type Event, type FunctionCall } from '@adkit/flow';

/** A consent a user has not given yet, for an app to show (AU-4). */
export interface PendingCredentialRequest {
  /** The `adk_request_credential` call; reply to its id with `createCredentialReply`. */
  call: FunctionCall;
  /** The tool call waiting for the credential. */
  originalCall: FunctionCall;
  /** The agent that asked. */
  author: string;
  /** Where to send the user: the authorization URL (with the state and PKCE challenge). */
  authUri?: string;
  /** The redirect URI the provider will send the user back to. */
  redirectUri?: string;
  /** The request as the flow stored it (no secrets). */
  authConfig: AuthConfig;
}

/**
 * The credential requests in a session's events still waiting for the user, oldest first. Only
 * requests the flow created are listed (a model's own `adk_request_credential` never is), and one
 * whose call was answered since is not pending any more: the same definition the flow's resume
 * path uses, so a reply to one of these resumes it.
 */
export function pendingCredentialRequests(events: readonly Event[]): PendingCredentialRequest[] {
  return pendingCredentialRequestsIn(events).map((request) => {
    const oauth2 = request.authConfig.exchangedAuthCredential?.oauth2;
    const entry: PendingCredentialRequest = { call: request.requestCall, originalCall: request.originalCall, author: request.author, authConfig: request.authConfig };
    if (oauth2?.authUri) entry.authUri = oauth2.authUri;
    if (oauth2?.redirectUri) entry.redirectUri = oauth2.redirectUri;
    return entry;
  });
}
