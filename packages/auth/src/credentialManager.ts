import * as oauth from 'oauth4webapi';
import {
  ConfigError,
  credentialKeyOf,
  readyCredential,
  redactAuthConfig,
  type AuthConfig,
  type AuthCredential,
  type CredentialCallOptions,
  type CredentialManager,
  type CredentialReply,
  type CredentialScope,
} from '@adkit/flow';
import { authorizationServer, describe, requestOptions, type HttpOptions } from './authorizationServer.js';
import type { CredentialRecord, CredentialService } from './credentialService.js';
import { CredentialError } from './errors.js';

/** Options of `credentialManager`. */
export interface CredentialManagerOptions {
  /** Where credentials and pending consents are kept (per user). */
  credentialService: CredentialService;
  /** The redirect URI of consents whose raw credential names none (your app's OAuth callback). */
  redirectUri?: string;
  /** How the client authenticates at the token endpoint; default `client_secret_basic`. */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post';
  /** How long a consent may take, from the request to the reply; default 10 minutes. */
  consentTtlMs?: number;
  /** A token that expires within this many seconds is refreshed before use; default 30. */
  refreshSkewSeconds?: number;
  /** Allow `http:` endpoints (a provider on 127.0.0.1 in tests and development). Never in production. */
  allowInsecureRequests?: boolean;
  /** The fetch to use (a proxy, a test double). */
  fetch?: typeof fetch;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

/** What a pending consent keeps, server-side, until its reply arrives. */
interface PendingConsent {
  credentialKey: string;
  codeVerifier: string;
  redirectUri: string;
  clientSecret?: string;
  createdAt: number;
}

const MAX_RESPONSE_URI = 8192;

/**
 * The runner's credential manager (AU-5, AU-6) on OAuth 2.0 and OpenID Connect through
 * `oauth4webapi`: authorization code with PKCE (S256) and `state`, client credentials, OpenID
 * Connect discovery, refresh when a token has expired or the resource refused it. API keys and
 * static HTTP tokens are used as they are. Pass it to `new Runner({credentials})`.
 *
 * What is kept where: the consent request in the session's events has no secret (the URL, the
 * state, the client id); the PKCE verifier and client secret of a pending consent, and the tokens,
 * are in the credential service, per user. A consent is completed once: its pending record is
 * deleted before the code is exchanged.
 */
export function credentialManager(options: CredentialManagerOptions): CredentialManager {
  if (!options?.credentialService) throw new ConfigError('credentialManager needs a credentialService (new InMemoryCredentialService(), or SessionCredentialService to share credentials between processes).');
  const service = options.credentialService;
  const now = options.now ?? Date.now;
  const consentTtlMs = options.consentTtlMs ?? 10 * 60_000;
  const skew = options.refreshSkewSeconds ?? 30;
  const refreshing = new Map<string, Promise<AuthCredential | undefined>>();
  const http = (signal?: AbortSignal): HttpOptions => ({ fetch: options.fetch, allowInsecureRequests: options.allowInsecureRequests, signal });
  const clientAuth = (secret: string | undefined): oauth.ClientAuth =>
    secret === undefined ? oauth.None() : options.tokenEndpointAuthMethod === 'client_secret_post' ? oauth.ClientSecretPost(secret) : oauth.ClientSecretBasic(secret);
  const record = (scope: CredentialScope, name: string) => ({ appName: scope.appName, userId: scope.userId, name });

  async function refresh(config: AuthConfig, key: string, scope: CredentialScope, stored: AuthCredential, signal?: AbortSignal) {
    const refreshToken = stored.oauth2?.refreshToken;
    if (!refreshToken) {
      await service.delete(record(scope, key));
      return undefined;
    }
    const server = await authorizationServer(config.authScheme, http(signal));
    const raw = config.rawAuthCredential?.oauth2;
    // The client the tokens were issued to (a registration made by another process may differ).
    const clientId = stored.oauth2?.clientId ?? raw?.clientId ?? '';
    const client: oauth.Client = { client_id: clientId };
    let tokens: oauth.TokenEndpointResponse;
    try {
      const secret = clientId === raw?.clientId ? raw?.clientSecret : undefined;
      const response = await oauth.refreshTokenGrantRequest(server, client, clientAuth(secret), refreshToken, requestOptions(http(signal)));
      tokens = await oauth.processRefreshTokenResponse(server, client, response);
    } catch (error) {
      // A refresh token the server no longer honours (revoked, expired): the user must consent again.
      if (error instanceof oauth.ResponseBodyError && error.error === 'invalid_grant') {
        await service.delete(record(scope, key));
        return undefined;
      }
      throw new CredentialError(`Refreshing the credential failed: ${describe(error)}.`, { cause: error });
    }
    const credential = toCredential(stored.authType, tokens, now(), clientId, refreshToken);
    await service.set(record(scope, key), credential as unknown as CredentialRecord);
    return credential;
  }

  return {
    async getCredential(config: AuthConfig, scope: CredentialScope, call: CredentialCallOptions = {}) {
      const ready = readyCredential(config);
      if (ready) return ready;
      const key = await credentialKeyOf(config);
      const stored = (await service.get(record(scope, key))) as AuthCredential | undefined;
      if (stored?.oauth2?.accessToken) {
        const expiresAt = stored.oauth2.expiresAt;
        const fresh = expiresAt === undefined || expiresAt - skew > now() / 1000;
        if (fresh && !call.forceRefresh) return stored;
        // One refresh per credential at a time in this process (rotating refresh tokens are single-use).
        const id = JSON.stringify([scope.appName, scope.userId, key]);
        let running = refreshing.get(id);
        if (!running) {
          running = refresh(config, key, scope, stored, call.signal).finally(() => refreshing.delete(id));
          refreshing.set(id, running);
        }
        return running;
      }
      const flows = config.authScheme.type === 'oauth2' ? config.authScheme.flows : undefined;
      if (flows?.clientCredentials && !flows.authorizationCode) {
        const raw = config.rawAuthCredential?.oauth2;
        if (!raw?.clientId || !raw.clientSecret) throw new CredentialError('The client-credentials flow needs rawAuthCredential.oauth2.clientId and clientSecret.');
        const server = await authorizationServer(config.authScheme, http(call.signal));
        const client: oauth.Client = { client_id: raw.clientId };
        const scopes = Object.keys(flows.clientCredentials.scopes ?? {});
        let tokens: oauth.TokenEndpointResponse;
        try {
          const response = await oauth.clientCredentialsGrantRequest(server, client, clientAuth(raw.clientSecret), scopes.length > 0 ? { scope: scopes.join(' ') } : {}, requestOptions(http(call.signal)));
          tokens = await oauth.processClientCredentialsResponse(server, client, response);
        } catch (error) {
          throw new CredentialError(`The client-credentials grant failed: ${describe(error)}.`, { cause: error });
        }
        const credential = toCredential('oauth2', tokens, now(), raw.clientId);
        await service.set(record(scope, key), credential as unknown as CredentialRecord);
        return credential;
      }
      return undefined;
    },

    async createRequest(config: AuthConfig, scope: CredentialScope, call: CredentialCallOptions = {}) {
      const scheme = config.authScheme;
      if (scheme.type !== 'oauth2' && scheme.type !== 'openIdConnect')
        throw new CredentialError(`A "${scheme.type}" credential cannot be asked for through a consent; put the API key or token in the tool's auth config.`);
      const raw = config.rawAuthCredential?.oauth2;
      if (!raw?.clientId) throw new CredentialError('The auth config has no rawAuthCredential.oauth2.clientId; register the app with the provider and pass its client id.');
      const redirectUri = raw.redirectUri ?? options.redirectUri;
      if (!redirectUri) throw new CredentialError('The auth config has no redirect URI; pass rawAuthCredential.oauth2.redirectUri or credentialManager({redirectUri}).');
      const server = await authorizationServer(scheme, http(call.signal));
      if (!server.authorization_endpoint) throw new CredentialError('The authorization server has no authorization endpoint (a client-credentials scheme asks no user).');
      const key = await credentialKeyOf(config);
      const state = oauth.generateRandomState();
      const codeVerifier = oauth.generateRandomCodeVerifier();
      const url = new URL(server.authorization_endpoint);
      const scopes = scheme.type === 'oauth2' ? Object.keys(scheme.flows.authorizationCode?.scopes ?? {}) : (scheme.scopes ?? ['openid']);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', raw.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      if (scopes.length > 0) url.searchParams.set('scope', scopes.join(' '));
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
      url.searchParams.set('code_challenge_method', 'S256');
      // AU-2: ask for a refresh token and a fresh consent.
      url.searchParams.set('access_type', 'offline');
      url.searchParams.set('prompt', 'consent');
      const pending: PendingConsent = { credentialKey: key, codeVerifier, redirectUri, createdAt: now() };
      if (raw.clientSecret !== undefined) pending.clientSecret = raw.clientSecret;
      await service.set(record(scope, `pending:${state}`), pending as unknown as CredentialRecord);
      return redactAuthConfig({
        ...config,
        credentialKey: key,
        exchangedAuthCredential: { authType: config.rawAuthCredential!.authType, oauth2: { clientId: raw.clientId, authUri: url.href, state, redirectUri } },
      });
    },

    async completeRequest(request: AuthConfig, reply: CredentialReply, scope: CredentialScope, call: CredentialCallOptions = {}) {
      const asked = request.exchangedAuthCredential?.oauth2;
      if (!asked?.state || !asked.redirectUri || !request.credentialKey) throw new CredentialError('the stored request has no state, redirect URI or credential key');
      if (reply.redirectUri !== undefined && reply.redirectUri !== asked.redirectUri) throw new CredentialError('the redirect URI of the reply is not the one of the request');
      if (typeof reply.authResponseUri !== 'string' || reply.authResponseUri.length > MAX_RESPONSE_URI)
        throw new CredentialError(`the response URI is missing or longer than ${MAX_RESPONSE_URI} characters`);
      let responseUrl: URL;
      try {
        responseUrl = new URL(reply.authResponseUri);
      } catch {
        throw new CredentialError('the response URI is not a URL');
      }
      const redirect = new URL(asked.redirectUri);
      if (responseUrl.origin !== redirect.origin || responseUrl.pathname !== redirect.pathname)
        throw new CredentialError('the response URI is not at the redirect URI of the request');
      if (responseUrl.searchParams.get('state') !== asked.state) throw new CredentialError('the state of the response does not match the request');
      // Used once: the pending consent is taken before anything else can fail.
      const pendingKey = record(scope, `pending:${asked.state}`);
      const pending = (await service.get(pendingKey)) as PendingConsent | undefined;
      if (!pending) throw new CredentialError('the consent request is unknown to this user or was already used; ask again');
      await service.delete(pendingKey);
      if (pending.credentialKey !== request.credentialKey || pending.redirectUri !== asked.redirectUri)
        throw new CredentialError('the consent request does not match the stored request');
      if (now() - pending.createdAt > consentTtlMs) throw new CredentialError('the consent took too long and expired; ask again');
      const server = await authorizationServer(request.authScheme, http(call.signal));
      const client: oauth.Client = { client_id: asked.clientId ?? request.rawAuthCredential?.oauth2?.clientId ?? '' };
      let tokens: oauth.TokenEndpointResponse;
      try {
        const params = oauth.validateAuthResponse(server, client, responseUrl, asked.state);
        const response = await oauth.authorizationCodeGrantRequest(server, client, clientAuth(pending.clientSecret), params, asked.redirectUri, pending.codeVerifier, requestOptions(http(call.signal)));
        tokens = await oauth.processAuthorizationCodeResponse(server, client, response);
      } catch (error) {
        throw new CredentialError(`the code exchange failed: ${describe(error)}`, { cause: error });
      }
      const authType = request.rawAuthCredential?.authType ?? (request.authScheme.type === 'openIdConnect' ? 'openIdConnect' : 'oauth2');
      await service.set(record(scope, request.credentialKey), toCredential(authType, tokens, now(), client.client_id) as unknown as CredentialRecord);
    },
  };
}

function toCredential(authType: AuthCredential['authType'], tokens: oauth.TokenEndpointResponse, nowMs: number, clientId: string, previousRefresh?: string): AuthCredential {
  const oauth2: NonNullable<AuthCredential['oauth2']> = { clientId, accessToken: tokens.access_token, tokenType: tokens.token_type };
  const refreshToken = tokens.refresh_token ?? previousRefresh;
  if (refreshToken) oauth2.refreshToken = refreshToken;
  if (typeof tokens.expires_in === 'number') oauth2.expiresAt = Math.floor(nowMs / 1000) + tokens.expires_in;
  if (typeof tokens.scope === 'string') oauth2.scopes = tokens.scope.split(' ').filter(Boolean);
  if (typeof tokens.id_token === 'string') oauth2.idToken = tokens.id_token;
  return { authType, oauth2 };
}
