import { AdkitError, ConfigError, errorMessage, isAdkitError, type AuthConfig, type ReadonlyContext, type ToolContext } from '@adkit/flow';
import { discoverOAuthServerInfo, registerClient, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpHeaders } from './mcpServerConfig.js';

/**
 * OAuth for an MCP server over HTTP (`mcpToolset({url, auth})`): the server's authorization
 * server is discovered the MCP way (RFC 9728 protected-resource metadata, then RFC 8414 / OpenID
 * Connect metadata, through the MCP SDK), the app registers itself there by dynamic client
 * registration unless `clientId` is given, and each user's consent runs through adkit's credential
 * protocol: the runner's credential manager (`@adkit/auth`) keeps the tokens per user, and a
 * listing or a call that needs consent pauses with `adk_request_credential`.
 */
export interface McpAuthOptions {
  /** Your app's OAuth callback, where the provider sends the user back (`authResponseUri` starts with it). */
  redirectUri: string;
  /** A client registered with the authorization server; without one the toolset registers itself (RFC 7591). */
  clientId?: string;
  /** The registered client's secret, if it is confidential. */
  clientSecret?: string;
  /** Scopes to ask for; default: the server's `scopes_supported` from its protected-resource metadata, if any. */
  scopes?: readonly string[];
  /** The name shown on the consent page when the toolset registers itself; default `"adkit"`. */
  clientName?: string;
}

/** The code of the error a listing throws when the user has not consented. */
export const MCP_CONSENT_NEEDED = 'MCP_CONSENT_NEEDED';

/** Checks `auth` of an HTTP server, throwing a `ConfigError` that names the fix. */
export function assertAuthOptions(owner: string, auth: unknown): asserts auth is McpAuthOptions {
  if (typeof auth !== 'object' || auth === null)
    throw new ConfigError(`${owner}: auth must be an object such as {redirectUri: "https://app.example/oauth/callback"}.`);
  const { redirectUri, clientId, clientSecret, scopes, clientName } = auth as Partial<McpAuthOptions>;
  if (typeof redirectUri !== 'string' || !URL.canParse(redirectUri))
    throw new ConfigError(`${owner}: auth.redirectUri must be your app's OAuth callback URL, e.g. "https://app.example/oauth/callback".`);
  for (const [key, value] of Object.entries({ clientId, clientSecret, clientName }))
    if (value !== undefined && (typeof value !== 'string' || value === '')) throw new ConfigError(`${owner}: auth.${key} must be a non-empty string.`);
  if (clientSecret !== undefined && clientId === undefined) throw new ConfigError(`${owner}: auth.clientSecret needs auth.clientId.`);
  if (scopes !== undefined && (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string')))
    throw new ConfigError(`${owner}: auth.scopes must be an array of strings.`);
}

/**
 * The OAuth side of one MCP server: its auth config (discovered and registered once per toolset,
 * retried after a failure), the bearer header of a user, and the pause when there is none.
 */
export class McpOAuth {
  private config?: Promise<AuthConfig>;

  constructor(
    private readonly owner: string,
    private readonly url: URL,
    private readonly options: McpAuthOptions,
    private readonly fetchFn?: (url: string | URL, init?: RequestInit) => Promise<Response>,
  ) {}

  /** The auth config users consent to (no user involved: discovery and registration only). */
  authConfig(): Promise<AuthConfig> {
    this.config ??= this.discover().catch((error: unknown) => {
      this.config = undefined;
      throw error;
    });
    return this.config;
  }

  /**
   * The `Authorization` header of the run's user; throws `MCP_CONSENT_NEEDED` when there is no
   * credential yet. `forceRefresh` after the server refused the token (a 401).
   */
  async headers(ctx: ReadonlyContext, forceRefresh = false): Promise<McpHeaders> {
    if (typeof ctx.getCredential !== 'function')
      throw new AdkitError(MCP_CONSENT_NEEDED, `${this.owner}: this context cannot look up credentials; run the toolset through a Runner with credentials.`);
    const credential = await ctx.getCredential(await this.authConfig(), { forceRefresh });
    const token = credential?.oauth2?.accessToken ?? credential?.http?.credentials.token;
    if (!token) throw new AdkitError(MCP_CONSENT_NEEDED, `${this.owner}: the user has not authorized this MCP server yet.`);
    return { authorization: `Bearer ${token}` };
  }

  /**
   * Runs `attempt` (a listing or a call) with the user's token (AU-7 for MCP): with no credential
   * it asks for one and answers pending; a 401 refreshes once and tries again, then asks again.
   */
  async authorized(ctx: ToolContext, attempt: () => Promise<Record<string, unknown> | undefined>): Promise<Record<string, unknown> | undefined> {
    const config = await this.authConfig();
    const ask = () => {
      ctx.requestCredential(config);
      return { status: 'Pending User Authorization.' };
    };
    if (!(await ctx.getCredential(config))) return ask();
    try {
      return await attempt();
    } catch (error) {
      if (!isUnauthorized(error)) throw error;
    }
    if (!(await ctx.getCredential(config, { forceRefresh: true }))) return ask();
    try {
      return await attempt();
    } catch (error) {
      if (!isUnauthorized(error)) throw error;
      return ask();
    }
  }

  private async discover(): Promise<AuthConfig> {
    let info: Awaited<ReturnType<typeof discoverOAuthServerInfo>>;
    try {
      info = await discoverOAuthServerInfo(this.url, this.fetchFn ? { fetchFn: this.fetchFn } : {});
    } catch (error) {
      throw new AdkitError('MCP_AUTH_DISCOVERY_FAILED', `${this.owner}: discovering the MCP server's authorization server failed: ${errorMessage(error)}`, { cause: error });
    }
    const metadata = info.authorizationServerMetadata;
    if (!metadata?.authorization_endpoint || !metadata.token_endpoint)
      throw new AdkitError('MCP_AUTH_DISCOVERY_FAILED', `${this.owner}: the authorization server ${info.authorizationServerUrl} publishes no authorization and token endpoints.`);
    const scopes = this.options.scopes ?? info.resourceMetadata?.scopes_supported ?? [];
    let clientId = this.options.clientId;
    let clientSecret = this.options.clientSecret;
    if (!clientId) {
      // Dynamic client registration (RFC 7591), once per toolset: a public client with PKCE.
      try {
        const registered = await registerClient(info.authorizationServerUrl, {
          metadata,
          clientMetadata: {
            client_name: this.options.clientName ?? 'adkit',
            redirect_uris: [this.options.redirectUri],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
            ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
          },
          ...(this.fetchFn ? { fetchFn: this.fetchFn } : {}),
        });
        clientId = registered.client_id;
        clientSecret = registered.client_secret;
      } catch (error) {
        throw new AdkitError('MCP_AUTH_REGISTRATION_FAILED', `${this.owner}: registering with the authorization server failed: ${errorMessage(error)}; pass auth.clientId of a registered client.`, { cause: error });
      }
    }
    return {
      authScheme: {
        type: 'oauth2',
        flows: {
          authorizationCode: {
            authorizationUrl: metadata.authorization_endpoint,
            tokenUrl: metadata.token_endpoint,
            scopes: Object.fromEntries(scopes.map((scope) => [scope, scope])),
          },
        },
      },
      rawAuthCredential: { authType: 'oauth2', oauth2: { clientId, ...(clientSecret ? { clientSecret } : {}), redirectUri: this.options.redirectUri } },
      // One key per server, whatever client id registration gave: a user's token outlives a restart.
      credentialKey: `mcp:${this.url.href}`,
    };
  }
}

/** Whether the failure is the server refusing the credential (HTTP 401), anywhere in its causes. */
export function isUnauthorized(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof UnauthorizedError) return true;
    if (current instanceof StreamableHTTPError && current.code === 401) return true;
    if (isAdkitError(current) && current.code === MCP_CONSENT_NEEDED) return true;
  }
  return false;
}

/** Whether a listing failed because the user has not consented (or the token was refused). */
export function needsConsent(error: unknown): boolean {
  return isUnauthorized(error);
}
