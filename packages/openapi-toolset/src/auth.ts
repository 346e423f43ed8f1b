import { ConfigError, type AuthConfig, type AuthScheme, type OAuthFlows, type ReadonlyContext, type ToolContext } from '@adkit/flow';
import type { RequestExtras } from './buildRequest.js';
import type { OpenApiDocument } from './loadSpec.js';
import type { HiddenParameters } from './operationSchema.js';
import type { OperationEntry } from './operations.js';

/**
 * A credential the app supplies for one security scheme of the spec:
 * - `{apiKey}` for an `apiKey` scheme (sent in its header, query parameter or cookie);
 * - `{token}` for `http` bearer, and for `oauth2`/`openIdConnect` when the app already holds an
 *   access token (sent as `Authorization: Bearer …`);
 * - `{username, password}` for `http` basic (adk-python #5492).
 */
export type StaticCredential = { apiKey: string } | { token: string } | { username: string; password: string };

/**
 * The app's OAuth 2.0 client for an `oauth2` or `openIdConnect` scheme: the user consents in a
 * pause of the run through the flow's credential protocol (the runner needs `credentials:
 * credentialManager(...)` from `@adkit/auth`), and the access token is then sent as a bearer token.
 */
export interface OAuthClientCredential {
  oauth2: { clientId: string; clientSecret?: string; redirectUri?: string };
}

/** A credential, or a function that finds it for the run (e.g. from `ctx.context`, per user). */
export type CredentialSource =
  | StaticCredential
  | OAuthClientCredential
  | ((ctx: ReadonlyContext) => StaticCredential | undefined | Promise<StaticCredential | undefined>);

/** Credentials by security scheme name (the keys of `components.securitySchemes`). */
export type AuthOptions = Record<string, CredentialSource>;

/** A security scheme as the spec declares it (the part this package reads). */
export interface SecurityScheme {
  readonly type: string;
  readonly name?: string;
  readonly in?: string;
  readonly scheme?: string;
  readonly flows?: OAuthFlows;
  readonly openIdConnectUrl?: string;
}

/** What one call's credentials came to. */
export type AppliedCredentials =
  | { extras: RequestExtras; oauth?: AuthConfig }
  | { missing: string }
  /** The user must consent first: ask with this config. */
  | { consent: AuthConfig };

/** The seam every credential goes through; static credentials now, the credential protocol later. */
export interface CredentialProvider {
  /**
   * Headers, query parameters and cookies for one call; a consent to ask for (OAuth); or a
   * message saying what is missing. `forceRefresh`: the API refused the OAuth token.
   */
  apply(operation: OperationEntry, ctx: ToolContext, options?: { forceRefresh?: boolean }): Promise<AppliedCredentials>;
  /** The parameter names credentials fill, never shown to the model (adk-python #1192). */
  readonly hidden: HiddenParameters;
}

/** The security schemes of the document, by name. */
export function securitySchemes(document: OpenApiDocument): Map<string, SecurityScheme> {
  const components = document.components as Record<string, unknown> | undefined;
  const raw = (components?.securitySchemes ?? {}) as Record<string, unknown>;
  const schemes = new Map<string, SecurityScheme>();
  for (const [name, scheme] of Object.entries(raw))
    if (typeof scheme === 'object' && scheme !== null && typeof (scheme as SecurityScheme).type === 'string') schemes.set(name, scheme as SecurityScheme);
  return schemes;
}

/** Throws a `ConfigError` unless each entry of `auth` has one of the credential shapes. */
export function assertAuthOptions(auth: unknown): asserts auth is AuthOptions | undefined {
  if (auth === undefined) return;
  if (typeof auth !== 'object' || auth === null || Array.isArray(auth))
    throw new ConfigError('openApiToolset: auth must map security scheme names to credentials, e.g. { petstore_auth: { token } }.');
  for (const [name, source] of Object.entries(auth)) {
    if (typeof source === 'function' || isOAuthClient(source)) continue;
    if (!isStaticCredential(source))
      throw new ConfigError(
        `openApiToolset: auth["${name}"] must be {apiKey}, {token}, {username, password}, {oauth2: {clientId, clientSecret, redirectUri}} or a function (ctx) => a static one.`,
      );
  }
}

function isOAuthClient(value: unknown): value is OAuthClientCredential {
  const oauth2 = (value as { oauth2?: { clientId?: unknown } } | null)?.oauth2;
  return typeof value === 'object' && value !== null && typeof oauth2 === 'object' && oauth2 !== null && typeof oauth2.clientId === 'string';
}

function isStaticCredential(value: unknown): value is StaticCredential {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.apiKey === 'string' || typeof v.token === 'string' || (typeof v.username === 'string' && typeof v.password === 'string');
}

/**
 * Credentials from the app: for each call, the first security requirement of the operation whose
 * schemes all have a credential is applied (an empty requirement means "no auth" and needs none).
 * Static credentials are used as given; an OAuth client goes through the flow's credential
 * protocol (`ctx.getCredential`, else a consent to ask for with `ctx.requestCredential`). Unknown
 * schemes and credentials of the wrong shape count as missing, with a message naming them.
 */
export function appCredentials(
  schemes: ReadonlyMap<string, SecurityScheme>,
  auth: AuthOptions,
  operations: readonly OperationEntry[],
): CredentialProvider {
  const headers = new Set<string>();
  const query = new Set<string>();
  const cookies = new Set<string>();
  for (const scheme of schemes.values()) {
    if (scheme.type === 'apiKey' && typeof scheme.name === 'string') {
      if (scheme.in === 'header') headers.add(scheme.name.toLowerCase());
      else if (scheme.in === 'query') query.add(scheme.name);
      else if (scheme.in === 'cookie') cookies.add(scheme.name);
    } else headers.add('authorization');
  }
  const oauthConfigs = new Map<string, AuthConfig>();
  for (const [name, source] of Object.entries(auth)) {
    const scheme = schemes.get(name);
    if (scheme && isOAuthClient(source)) {
      const config = oauthConfig(name, scheme, source, operations);
      if (typeof config === 'string') throw new ConfigError(config);
      oauthConfigs.set(name, config);
    }
  }
  return {
    hidden: { headers, query, cookies },
    async apply(operation, ctx, options = {}) {
      if (operation.security.length === 0) return { extras: empty() };
      const problems: string[] = [];
      let consent: AuthConfig | undefined;
      for (const requirement of operation.security) {
        const extras = empty();
        let oauth: AuthConfig | undefined;
        let complete = true;
        for (const name of Object.keys(requirement)) {
          const scheme = schemes.get(name);
          const source = Object.hasOwn(auth, name) ? auth[name] : undefined;
          const config = oauthConfigs.get(name);
          let problem: string | undefined;
          if (config) {
            const found = await ctx.getCredential(config, options);
            const token = found?.oauth2?.accessToken;
            if (token) {
              extras.headers.authorization = `Bearer ${token}`;
              oauth = config;
            } else {
              consent ??= config;
              problem = `the user has not authorized "${name}" yet`;
            }
          } else {
            const credential = typeof source === 'function' ? await source(ctx) : (source as StaticCredential | undefined);
            problem = !scheme
              ? `the security scheme "${name}" is not declared in components.securitySchemes`
              : credential === undefined
                ? `no credential for the security scheme "${name}"`
                : applyCredential(scheme, name, credential, extras);
          }
          if (problem) {
            problems.push(problem);
            complete = false;
            break;
          }
        }
        if (complete) return oauth ? { extras, oauth } : { extras };
      }
      if (consent) return { consent };
      return { missing: [...new Set(problems)].join('; ') };
    },
  };
}

/**
 * The `AuthConfig` a consent asks with: the spec's scheme, its scopes narrowed to those the
 * selected operations require (all of the flow's when none names any), and the app's client. One
 * consent then covers every tool of the toolset that uses the scheme.
 */
function oauthConfig(name: string, scheme: SecurityScheme, client: OAuthClientCredential, operations: readonly OperationEntry[]): AuthConfig | string {
  const wanted = new Set<string>();
  for (const operation of operations) for (const requirement of operation.security) for (const scope of requirement[name] ?? []) wanted.add(scope);
  const raw = { oauth2: { ...client.oauth2 } };
  if (scheme.type === 'oauth2' && scheme.flows && typeof scheme.flows === 'object') {
    const flows: OAuthFlows = {};
    for (const [kind, flow] of Object.entries(scheme.flows) as [keyof OAuthFlows, { scopes?: Record<string, string> }][]) {
      if (!flow || typeof flow !== 'object') continue;
      const scopes = Object.fromEntries(Object.entries(flow.scopes ?? {}).filter(([scope]) => wanted.size === 0 || wanted.has(scope)));
      (flows as Record<string, unknown>)[kind] = { ...flow, scopes };
    }
    return { authScheme: { type: 'oauth2', flows } as AuthScheme, rawAuthCredential: { authType: 'oauth2', ...raw } };
  }
  if (scheme.type === 'openIdConnect' && typeof scheme.openIdConnectUrl === 'string') {
    const scopes = ['openid', ...[...wanted].filter((scope) => scope !== 'openid')];
    return {
      authScheme: { type: 'openIdConnect', openIdConnectUrl: scheme.openIdConnectUrl, scopes },
      rawAuthCredential: { authType: 'openIdConnect', ...raw },
    };
  }
  return `openApiToolset: auth["${name}"] is an OAuth client, but the security scheme "${name}" is ${scheme.type}${scheme.type === 'oauth2' ? ' without flows' : scheme.type === 'openIdConnect' ? ' without openIdConnectUrl' : ''}; give it {apiKey}, {token} or {username, password}.`;
}

function empty(): RequestExtras {
  return { headers: {}, query: {}, cookies: {} };
}

/** Writes the credential where the scheme says; a message when the shapes do not fit. */
function applyCredential(scheme: SecurityScheme, name: string, credential: StaticCredential, extras: RequestExtras): string | undefined {
  if (!isStaticCredential(credential)) return `the credential for "${name}" is not {apiKey}, {token} or {username, password}`;
  if (scheme.type === 'apiKey') {
    if (!('apiKey' in credential)) return `the security scheme "${name}" takes {apiKey}`;
    if (/[\r\n\0]/.test(credential.apiKey)) return `the API key for "${name}" contains a line break`;
    if (scheme.in === 'header' && scheme.name) extras.headers[scheme.name] = credential.apiKey;
    else if (scheme.in === 'query' && scheme.name) extras.query[scheme.name] = credential.apiKey;
    else if (scheme.in === 'cookie' && scheme.name) extras.cookies[scheme.name] = credential.apiKey;
    else return `the security scheme "${name}" has no valid "in"/"name"`;
    return undefined;
  }
  if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
    if (!('username' in credential)) return `the security scheme "${name}" (HTTP Basic) takes {username, password}`;
    if (credential.username.includes(':')) return `the username for "${name}" must not contain ":"`;
    extras.headers.authorization = `Basic ${Buffer.from(`${credential.username}:${credential.password}`, 'utf8').toString('base64')}`;
    return undefined;
  }
  if ((scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') {
    if (!('token' in credential)) return `the security scheme "${name}" takes {token}`;
    if (/[\r\n\0]/.test(credential.token)) return `the token for "${name}" contains a line break`;
    extras.headers.authorization = `Bearer ${credential.token}`;
    return undefined;
  }
  return `the security scheme "${name}" (${scheme.type}${scheme.scheme ? ` ${scheme.scheme}` : ''}) is not supported`;
}
