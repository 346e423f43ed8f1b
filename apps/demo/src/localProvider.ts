import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Adapter, AdapterPayload } from 'oidc-provider';

/** The scope the calendar MCP server asks for, beside `openid` and `offline_access` (refresh tokens). */
export const CALENDAR_SCOPE = 'calendar:read';

/** An OpenID provider on 127.0.0.1 for the demo, and a stand-in for the user's browser. */
export interface LocalProvider {
  issuer: string;
  /** The subject and scopes of an access token this provider issued, or undefined when it is not valid. */
  verify(token: string): Promise<{ sub: string; scopes: string[]; clientId: string; expiresAt: number } | undefined>;
  /**
   * Signs in as `login` and consents on the provider's own pages (submitted over HTTP, as a
   * browser would); returns the URL the provider sent the browser back to (`redirectUri?code=…&state=…`).
   */
  consentAs(login: string, authUri: string, redirectUri: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts `oidc-provider` (a certified OpenID provider) on 127.0.0.1, a free port: open dynamic
 * client registration (what MCP clients expect of an authorization server), PKCE required, its
 * development login and consent pages (any login, any password), refresh tokens. Keys and storage
 * are made here, in memory, so the provider starts without its "development only" warnings and
 * the demo stays quiet; its data ends with the process. The two warnings left (the development
 * login pages are on; Node 20 is older than the LTS it asks for) are expected here and not printed.
 */
export async function startLocalProvider(): Promise<LocalProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = await withoutWarnings(EXPECTED_WARNINGS, async () => {
    const { default: Provider } = await import('oidc-provider');
    return new Provider(issuer, {
      adapter: memoryAdapter(),
      jwks: { keys: [{ ...signingKey, use: 'sig', alg: 'RS256', kid: 'demo' }] as never },
      scopes: ['openid', 'offline_access', CALENDAR_SCOPE],
      findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
      features: { devInteractions: { enabled: true }, registration: { enabled: true }, revocation: { enabled: true } },
      ttl: { AccessToken: 3600, Grant: 86400, RefreshToken: 86400, IdToken: 3600, Interaction: 600, Session: 86400 },
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      pkce: { required: () => true },
      // Refresh tokens for public clients too (the toolset registers itself as one, with PKCE).
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    });
  });
  provider.on('server_error', () => {}); // a bad request is answered with an error page; nothing to print
  server.on('request', provider.callback());
  return {
    issuer,
    async verify(token) {
      const found = await provider.AccessToken.find(token);
      if (!found || found.isExpired) return undefined;
      return { sub: found.accountId, scopes: [...found.scopes], clientId: found.clientId!, expiresAt: found.exp! };
    },
    consentAs: (login, authUri, redirectUri) => consentAs(login, authUri, redirectUri),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What oidc-provider warns about that the demo does on purpose (on Node 20, with its development pages). */
const EXPECTED_WARNINGS = [/^oidc-provider WARNING: Unsupported runtime\b/, /^oidc-provider WARNING: a quick start development-only feature devInteractions is enabled\b/];

/** Runs `fn` with those warnings (and only those) left out of `console.warn`. */
async function withoutWarnings<T>(expected: readonly RegExp[], fn: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!(typeof args[0] === 'string' && expected.some((pattern) => pattern.test(args[0] as string)))) warn(...args);
  };
  try {
    return await fn();
  } finally {
    console.warn = warn;
  }
}

/** The provider's storage: in this process, each record dropped when it expires or its grant is revoked. */
function memoryAdapter(): new (name: string) => Adapter {
  const records = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  const live = (key: string) => {
    const record = records.get(key);
    if (record && record.expiresAt <= Date.now()) records.delete(key);
    return records.get(key)?.payload;
  };
  return class DemoAdapter implements Adapter {
    constructor(private readonly name: string) {}
    private key(id: string) {
      return `${this.name}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      records.set(this.key(id), { payload: { ...payload }, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
    }
    async find(id: string) {
      return live(this.key(id));
    }
    async findByUid(uid: string) {
      for (const [key, { payload }] of records) if (key.startsWith(`${this.name}:`) && payload.uid === uid) return live(key);
      return undefined;
    }
    async findByUserCode(userCode: string) {
      for (const [key, { payload }] of records) if (key.startsWith(`${this.name}:`) && payload.userCode === userCode) return live(key);
      return undefined;
    }
    async consume(id: string) {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      records.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, { payload }] of records) if (payload.grantId === grantId) records.delete(key);
    }
  };
}

/**
 * What the user's browser does on the provider's pages: follows its redirects with a cookie jar,
 * submits the login form (as `login`, any password) and the consent form, and stops at the
 * redirect back to the app. Nothing is mocked: the provider sees a browser.
 */
export async function consentAs(login: string, authUri: string, redirectUri: string): Promise<string> {
  const cookies = new Map<string, string>();
  let request: { url: string; body?: URLSearchParams } = { url: authUri };
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(request.url, {
      method: request.body ? 'POST' : 'GET',
      body: request.body,
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
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
    if (!action) throw new Error(`the provider showed no form at ${new URL(request.url).pathname} (HTTP ${response.status})`);
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1] ?? 'consent';
    request = { url: new URL(action, request.url).href, body: new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt }) };
  }
  throw new Error('the provider redirected too often');
}
