/**
 * ADK's credential protocol types (AU-1): OpenAPI 3 security schemes, the credentials that answer
 * them, and the `AuthConfig` a tool asks with. The JSON shape is ADK's (camelCase, as adk-js and
 * ADK Python's `by_alias` dump), so clients written for ADK read adkit's events unchanged.
 */

/** The function name of credential requests and replies, kept out of the model's history (AU-3). */
export const REQUEST_CREDENTIAL_FUNCTION = 'adk_request_credential';

/** OAuth 2.0 flows of an `oauth2` scheme (OpenAPI 3 "OAuth Flows Object"). */
export interface OAuthFlows {
  authorizationCode?: { authorizationUrl: string; tokenUrl: string; refreshUrl?: string; scopes?: Record<string, string> };
  clientCredentials?: { tokenUrl: string; refreshUrl?: string; scopes?: Record<string, string> };
  implicit?: { authorizationUrl: string; refreshUrl?: string; scopes?: Record<string, string> };
  password?: { tokenUrl: string; refreshUrl?: string; scopes?: Record<string, string> };
}

/** An API key sent in a header, query parameter or cookie. */
export interface ApiKeyScheme {
  type: 'apiKey';
  name: string;
  in: 'header' | 'query' | 'cookie';
  description?: string;
}

/** HTTP authentication (`bearer`, `basic`, …) in the `Authorization` header. */
export interface HttpScheme {
  type: 'http';
  scheme: string;
  bearerFormat?: string;
  description?: string;
}

/** OAuth 2.0 with one or more flows. */
export interface OAuth2Scheme {
  type: 'oauth2';
  flows: OAuthFlows;
  description?: string;
}

/**
 * OpenID Connect: either the discovery URL (`openIdConnectUrl`, read by the credential manager),
 * or ADK's `OpenIdConnectWithConfig` with the endpoints already given.
 */
export interface OpenIdConnectScheme {
  type: 'openIdConnect';
  openIdConnectUrl?: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  userinfo_endpoint?: string;
  revocation_endpoint?: string;
  scopes?: string[];
  description?: string;
}

/** An OpenAPI 3 security scheme (AU-1). */
export type AuthScheme = ApiKeyScheme | HttpScheme | OAuth2Scheme | OpenIdConnectScheme;

/** The credential types of ADK's `AuthCredentialTypes`. */
export type AuthCredentialType = 'apiKey' | 'http' | 'oauth2' | 'openIdConnect' | 'serviceAccount';

/** The OAuth 2.0 part of a credential: the client, the consent round trip, the tokens. */
export interface OAuth2Auth {
  clientId?: string;
  clientSecret?: string;
  /** The authorization URL the user is sent to (filled in by the credential manager). */
  authUri?: string;
  /** The `state` of the consent request (filled in by the credential manager). */
  state?: string;
  redirectUri?: string;
  /** The full URL the provider redirected the user to (filled in by the client). */
  authResponseUri?: string;
  authCode?: string;
  accessToken?: string;
  refreshToken?: string;
  idToken?: string;
  /** Seconds since the epoch when the access token expires. */
  expiresAt?: number;
  expiresIn?: number;
  /** Scopes granted (space-separated in OAuth; a list here). */
  scopes?: string[];
  tokenType?: string;
}

/** HTTP credentials: a bearer token, or a user name and password. */
export interface HttpAuth {
  scheme: string;
  credentials: { username?: string; password?: string; token?: string };
}

/** A service account (Google's); exchanged by a manager that supports it. */
export interface ServiceAccountAuth {
  serviceAccountCredential?: Record<string, unknown>;
  scopes?: string[];
  useDefaultCredential?: boolean;
}

/** A credential (AU-1): its type and the body for that type. */
export interface AuthCredential {
  authType: AuthCredentialType;
  resourceRef?: string;
  apiKey?: string;
  http?: HttpAuth;
  oauth2?: OAuth2Auth;
  serviceAccount?: ServiceAccountAuth;
}

/**
 * What a tool asks with (AU-1): the scheme, the raw credential (the app's client id and secret),
 * the exchanged credential (the consent request, then the tokens) and the key the credential is
 * stored under. `credentialKey` defaults to a hash of the scheme and the raw credential.
 */
export interface AuthConfig {
  authScheme: AuthScheme;
  rawAuthCredential?: AuthCredential;
  exchangedAuthCredential?: AuthCredential;
  credentialKey?: string;
}
