// A real OpenID provider for the tests: oidc-provider on 127.0.0.1 with one confidential client,
// its development login and consent pages (submitted over HTTP the way a browser would), opaque
// access tokens checked against the provider's own store, revocation and client credentials.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface OidcServer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  provider: Provider;
  /** What the API servers use: the token's subject and scopes, or undefined when it is not valid. */
  verify(token: string): Promise<{ sub: string; scopes: string[]; clientId: string; expiresAt: number } | undefined>;
  /** Stops accepting connections (the provider "down"); `start` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startOidcServer(options: { accessTokenTtl?: number; registration?: boolean } = {}): Promise<OidcServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'adkit-app';
  const clientSecret = 'client-secret-5f0c1d8e9a7b';
  const redirectUri = 'http://127.0.0.1:9/oauth/callback';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
        response_types: ['code'],
        scope: 'openid offline_access api:read',
      },
    ],
    scopes: ['openid', 'offline_access', 'api:read'],
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      // Open dynamic client registration (RFC 7591), as MCP clients expect of an authorization server.
      registration: { enabled: options.registration === true },
    },
    ttl: { AccessToken: options.accessTokenTtl ?? 3600, ClientCredentials: 600, Grant: 86400, RefreshToken: 86400, IdToken: 3600, Interaction: 600, Session: 86400 },
    cookies: { keys: ['test-cookie-key-1'] },
    pkce: { required: () => true },
  });
  // The dev pages warn on the console; they are what the test drives.
  provider.on('server_error', () => {});
  let handler = provider.callback();
  server.on('request', (req, res) => handler(req, res));
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  let current = server;
  const stop = async () => {
    await new Promise<void>((resolve) => {
      current.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  };
  return {
    issuer,
    clientId,
    clientSecret,
    redirectUri,
    provider,
    async verify(token) {
      const found = (await provider.AccessToken.find(token)) ?? (await provider.ClientCredentials.find(token));
      if (!found || found.isExpired) return undefined;
      return { sub: (found as { accountId?: string }).accountId ?? found.clientId!, scopes: [...found.scopes], clientId: found.clientId!, expiresAt: found.exp! };
    },
    stop,
    async start() {
      const next = createServer();
      handler = provider.callback();
      next.on('request', (req, res) => handler(req, res));
      next.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => next.listen(port, '127.0.0.1', resolve));
      current = next;
    },
    close: async () => {
      if (current.listening) await stop();
    },
  };
}

/**
 * Gives (or refuses) consent as a user would: follows the provider's redirects with a cookie jar,
 * submits its login form and its consent form, and returns the URL it finally redirects to (the
 * app's redirect URI with `code` and `state`, or with `error`). Nothing is mocked: the provider
 * sees a browser.
 */
export async function consent(authUri: string, redirectUri: string, options: { login?: string; deny?: boolean } = {}): Promise<string> {
  const jar = new Map<string, string>();
  let url = authUri;
  let method = 'GET';
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (location) {
      await response.arrayBuffer();
      const next = new URL(location, url).href;
      if (next.startsWith(redirectUri)) return next;
      url = next;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`consent: no form and no redirect at ${url} (HTTP ${response.status}): ${html.slice(0, 300)}`);
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (options.deny && prompt === 'consent') {
      url = new URL(`${action.replace(/\/$/, '')}/abort`, url).href;
      method = 'GET';
      body = undefined;
      continue;
    }
    url = new URL(action, url).href;
    method = 'POST';
    body = new URLSearchParams(prompt === 'login' ? { prompt, login: options.login ?? 'alice', password: 'any' } : { prompt: prompt ?? 'consent' });
  }
  throw new Error('consent: too many redirects');
}
