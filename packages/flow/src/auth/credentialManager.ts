import type { AuthConfig, AuthCredential } from './authTypes.js';

/** Whose credential: credentials belong to a user of an app (`user:` scope), never to a session. */
export interface CredentialScope {
  readonly appName: string;
  readonly userId: string;
  /** The session that asks, for the manager's records; credentials are not keyed by it. */
  readonly sessionId: string;
}

/** What a client's reply to a credential request may contribute: the redirect it got, nothing else. */
export interface CredentialReply {
  /** The full URL the authorization server redirected the user to (with `code` and `state`). */
  readonly authResponseUri: string;
  /** The redirect URI the client used; must be the one of the request. */
  readonly redirectUri?: string;
}

/** Options of every manager call. */
export interface CredentialCallOptions {
  readonly signal?: AbortSignal;
  /** Refresh (or drop) the stored credential even if it has not expired: the resource refused it. */
  readonly forceRefresh?: boolean;
}

/**
 * What the runner needs to run the credential protocol (AU-5, AU-6); `credentialManager()` of
 * `@adkit/auth` implements it on OAuth 2.0 (so the flow carries no OAuth code). Pass one to
 * `new Runner({credentials})`. Errors a manager throws must carry no secret in their message:
 * the flow shows them to the model.
 */
export interface CredentialManager {
  /**
   * The usable credential for the config and user, or `undefined` when the user must consent:
   * a ready one (API key, HTTP) as is, else the stored one, refreshed when it has expired (or when
   * `forceRefresh`), else one from the client-credentials flow. Never asks the user.
   */
  getCredential(config: AuthConfig, scope: CredentialScope, options?: CredentialCallOptions): Promise<AuthCredential | undefined>;
  /**
   * The consent request to send to the client: the config with
   * `exchangedAuthCredential.oauth2.{authUri, state, redirectUri}` filled in and no secret in it.
   * What the exchange needs later (the PKCE verifier, the client secret) stays with the manager.
   */
  createRequest(config: AuthConfig, scope: CredentialScope, options?: CredentialCallOptions): Promise<AuthConfig>;
  /**
   * Completes a consent: `request` is the request the flow stored (the scheme, key, endpoints and
   * state are read from it), `reply` what the client sent. Checks the state, exchanges the code
   * once, stores the credential. Throws when the reply does not fit or the exchange fails.
   */
  completeRequest(request: AuthConfig, reply: CredentialReply, scope: CredentialScope, options?: CredentialCallOptions): Promise<void>;
}
