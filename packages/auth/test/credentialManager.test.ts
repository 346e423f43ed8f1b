// Pins credentialManager's own rules (AU-6) against the real provider: client credentials, ready
// credentials without a round trip, the request it makes (PKCE, state, no secret), config errors.
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, type AuthConfig } from '@adkit/flow';
import { CredentialError, InMemoryCredentialService, credentialManager } from '../src/index.js';
import { startOidcServer, type OidcServer } from './support/oidcServer.js';
import { apiAuth } from './support/fixture.js';

let idp: OidcServer;
beforeAll(async () => {
  idp = await startOidcServer();
});
afterAll(async () => {
  await idp?.close();
});
const scope = { appName: 'app', userId: 'alice', sessionId: 's' };

/** A port nothing listens on (one the system just gave out and took back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('credentialManager', () => {
  it('needs a credential service', () => {
    expect(() => credentialManager({} as never)).toThrow(ConfigError);
  });

  it('AU-6: the client-credentials flow gets a token with no user, and keeps it', async () => {
    const manager = credentialManager({ credentialService: new InMemoryCredentialService(), allowInsecureRequests: true });
    const config: AuthConfig = {
      authScheme: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${idp.issuer}/token`, scopes: { 'api:read': 'read' } } } },
      rawAuthCredential: { authType: 'oauth2', oauth2: { clientId: idp.clientId, clientSecret: idp.clientSecret } },
    };
    const credential = await manager.getCredential(config, scope);
    const verified = await idp.verify(credential!.oauth2!.accessToken!);
    expect(verified).toMatchObject({ clientId: idp.clientId, scopes: ['api:read'] });
    expect((await manager.getCredential(config, scope))!.oauth2!.accessToken).toBe(credential!.oauth2!.accessToken);
  });

  it('AU-6: API keys and HTTP tokens are used as they are', async () => {
    const manager = credentialManager({ credentialService: new InMemoryCredentialService() });
    const apiKey: AuthConfig = { authScheme: { type: 'apiKey', name: 'X-Key', in: 'header' }, rawAuthCredential: { authType: 'apiKey', apiKey: 'k-1' } };
    expect(await manager.getCredential(apiKey, scope)).toEqual({ authType: 'apiKey', apiKey: 'k-1' });
    await expect(manager.createRequest(apiKey, scope)).rejects.toThrow(CredentialError);
  });

  it('AU-2: the request has PKCE S256, a fresh state, offline access and consent, and no secret', async () => {
    const manager = credentialManager({ credentialService: new InMemoryCredentialService(), allowInsecureRequests: true });
    const one = await manager.createRequest(apiAuth(idp), scope);
    const two = await manager.createRequest(apiAuth(idp), scope);
    const url = new URL(one.exchangedAuthCredential!.oauth2!.authUri!);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: idp.clientId,
      redirect_uri: idp.redirectUri,
      scope: 'openid offline_access api:read',
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(one.exchangedAuthCredential!.oauth2!.state).not.toBe(two.exchangedAuthCredential!.oauth2!.state);
    expect(JSON.stringify(one)).not.toContain(idp.clientSecret);
  });

  it('a config without a client id or redirect URI, or a discovery URL that answers nothing, is a clear error', async () => {
    const manager = credentialManager({ credentialService: new InMemoryCredentialService(), allowInsecureRequests: true });
    const base = apiAuth(idp);
    await expect(manager.createRequest({ ...base, rawAuthCredential: { authType: 'oauth2', oauth2: { redirectUri: idp.redirectUri } } }, scope)).rejects.toThrow(
      'The auth config has no rawAuthCredential.oauth2.clientId; register the app with the provider and pass its client id.',
    );
    await expect(manager.createRequest({ ...base, rawAuthCredential: { authType: 'oauth2', oauth2: { clientId: 'x' } } }, scope)).rejects.toThrow(/no redirect URI/);
    const port = await closedPort();
    const gone: AuthConfig = { ...base, authScheme: { type: 'openIdConnect', openIdConnectUrl: `http://127.0.0.1:${port}/.well-known/openid-configuration` } };
    await expect(manager.createRequest(gone, scope)).rejects.toThrow(`OpenID Connect discovery at http://127.0.0.1:${port} failed: the server could not be reached (ECONNREFUSED)`);
  });
});
