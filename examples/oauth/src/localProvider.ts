// What the example needs around it, offline: a real OpenID provider (oidc-provider) and a small API
// behind it on 127.0.0.1, and a stand-in for the user's browser that signs in and consents on the
// provider's own pages. In an app these are your provider (Google, GitHub, Okta…), your API, and a
// real browser that comes back to your OAuth callback.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface LocalProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** GET /calendar with a bearer token the provider issued. */
  apiUrl: string;
  /** Signs in as `login` and consents, as a browser would; returns where the provider redirected. */
  consentAs(login: string, authUri: string): Promise<string>;
  close(): Promise<void>;
}

const listen = async (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

export async function startLocalProvider(): Promise<LocalProvider> {
  let provider: Provider | undefined;
  const idp = await listen((req, res) => void provider!.callback()(req, res));
  const clientId = 'calendar-app';
  const clientSecret = 'example-secret-1b2c3d4e';
  const redirectUri = 'http://127.0.0.1:9/oauth/callback';
  provider = new Provider(idp.url, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], scope: 'openid offline_access calendar' }],
    scopes: ['openid', 'offline_access', 'calendar'],
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    features: { devInteractions: { enabled: true } },
    ttl: { AccessToken: 3600, Grant: 86400, RefreshToken: 86400, IdToken: 3600, Interaction: 600, Session: 86400 },
    cookies: { keys: ['example-cookie-key'] },
  });
  const api = await listen(async (req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const found = token ? await provider!.AccessToken.find(token) : undefined;
    if (!found || found.isExpired) return void res.writeHead(401).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ owner: found.accountId, events: ['09:00 standup'] }));
  });
  return {
    issuer: idp.url,
    clientId,
    clientSecret,
    redirectUri,
    apiUrl: `${api.url}/calendar`,
    consentAs: (login, authUri) => browse(authUri, redirectUri, login),
    close: async () => {
      for (const { server } of [idp, api]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

/** Follows redirects with cookies and submits the provider's login and consent forms. */
async function browse(url: string, redirectUri: string, login: string): Promise<string> {
  const cookies = new Map<string, string>();
  let request: { url: string; body?: URLSearchParams } = { url };
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(request.url, {
      method: request.body ? 'POST' : 'GET',
      body: request.body,
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    const location = response.headers.get('location');
    if (location) {
      await response.arrayBuffer();
      const next = new URL(location, request.url).href;
      if (next.startsWith(redirectUri)) return next;
      request = { url: next };
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1] ?? 'consent';
    if (!action) throw new Error(`the provider showed no form at ${request.url}`);
    request = { url: new URL(action, request.url).href, body: new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt }) };
  }
  throw new Error('the provider redirected too often');
}
