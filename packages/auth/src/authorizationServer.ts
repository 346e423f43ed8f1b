import * as oauth from 'oauth4webapi';
import type { AuthScheme } from '@adkit/flow';
import { CredentialError } from './errors.js';

/** How the manager talks HTTP: the fetch to use and whether plain http is allowed (local tests). */
export interface HttpOptions {
  readonly fetch?: typeof fetch;
  readonly allowInsecureRequests?: boolean;
  readonly signal?: AbortSignal;
}

/** Options oauth4webapi takes on every request. */
export function requestOptions(http: HttpOptions): oauth.DiscoveryRequestOptions & oauth.TokenEndpointRequestOptions {
  const options: oauth.TokenEndpointRequestOptions & oauth.DiscoveryRequestOptions = {};
  // oauth4webapi types its fetch per method; any fetch serves every one.
  if (http.fetch) (options as Record<symbol, unknown>)[oauth.customFetch] = http.fetch;
  if (http.allowInsecureRequests) options[oauth.allowInsecureRequests] = true;
  if (http.signal) options.signal = http.signal;
  return options;
}

const DISCOVERY_TTL_MS = 10 * 60_000;
const discovered = new Map<string, { server: oauth.AuthorizationServer; until: number }>();

/**
 * The authorization server of a scheme: the endpoints of an `oauth2` scheme's flows, the
 * endpoints of an `openIdConnect` scheme that lists them, or OpenID Connect discovery from its
 * `openIdConnectUrl` (kept for ten minutes). The endpoints always come from the tool's scheme or
 * the server's own metadata, never from a client's reply.
 */
export async function authorizationServer(scheme: AuthScheme, http: HttpOptions): Promise<oauth.AuthorizationServer> {
  if (scheme.type === 'oauth2') {
    const code = scheme.flows.authorizationCode;
    const credentials = scheme.flows.clientCredentials;
    const tokenUrl = code?.tokenUrl ?? credentials?.tokenUrl;
    if (!tokenUrl) throw new CredentialError('The oauth2 scheme has no authorizationCode or clientCredentials flow with a tokenUrl.');
    return {
      issuer: new URL(code?.authorizationUrl ?? tokenUrl).origin,
      token_endpoint: tokenUrl,
      ...(code ? { authorization_endpoint: code.authorizationUrl } : {}),
    };
  }
  if (scheme.type === 'openIdConnect') {
    if (scheme.authorization_endpoint && scheme.token_endpoint)
      return { issuer: new URL(scheme.authorization_endpoint).origin, authorization_endpoint: scheme.authorization_endpoint, token_endpoint: scheme.token_endpoint };
    if (!scheme.openIdConnectUrl) throw new CredentialError('The openIdConnect scheme has neither openIdConnectUrl nor authorization_endpoint and token_endpoint.');
    return discover(scheme.openIdConnectUrl, http);
  }
  throw new CredentialError(`A "${scheme.type}" scheme needs no authorization server; pass the API key or token in the credential.`);
}

async function discover(url: string, http: HttpOptions): Promise<oauth.AuthorizationServer> {
  const cached = discovered.get(url);
  if (cached && cached.until > Date.now()) return cached.server;
  const wellKnown = '/.well-known/openid-configuration';
  const issuer = new URL(url.endsWith(wellKnown) ? url.slice(0, -wellKnown.length) : url);
  let server: oauth.AuthorizationServer;
  try {
    const response = await oauth.discoveryRequest(issuer, { ...requestOptions(http), algorithm: 'oidc' });
    server = await oauth.processDiscoveryResponse(issuer, response);
  } catch (error) {
    throw new CredentialError(`OpenID Connect discovery at ${issuer.origin} failed: ${describe(error)}`, { cause: error });
  }
  discovered.set(url, { server, until: Date.now() + DISCOVERY_TTL_MS });
  return server;
}

/**
 * A secret-free description of an OAuth failure: the server's error code and description, or the
 * network failure's reason. Never the response body beyond those fields.
 */
export function describe(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError) return `the server answered ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`;
  if (error instanceof oauth.AuthorizationResponseError) return `the authorization server answered ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`;
  if (error instanceof oauth.WWWAuthenticateChallengeError) return `the server refused the request (HTTP ${error.status})`;
  if (error instanceof oauth.OperationProcessingError) return error.message;
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: { code?: string; errors?: { code?: string }[] } }).cause;
    if (error.name === 'AbortError' || error.name === 'TimeoutError') return 'the request was cancelled';
    // Node's fetch puts the socket error in `cause` (an AggregateError when several addresses failed).
    const code = cause?.code ?? cause?.errors?.find((e) => e?.code)?.code;
    if (error.message !== 'fetch failed') return error.message;
    const reason = code ?? (cause as { message?: string } | undefined)?.message;
    return reason ? `the server could not be reached (${reason})` : 'the server could not be reached';
  }
  return String(error);
}
