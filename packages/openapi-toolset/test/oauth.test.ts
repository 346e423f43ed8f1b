// OAuth 2.0 / OpenID Connect through the flow's credential protocol (#25): the user's consent is
// a pause of the run, against a real OpenID provider (oidc-provider, @adkit/auth's test harness)
// and a real resource server that checks the token with the provider. Nothing is mocked.
import { fileURLToPath } from 'node:url';
import { InMemoryCredentialService, createCredentialReply, credentialManager, pendingCredentialRequests } from '@adkit/auth';
import { createConfirmationReply, pendingConfirmations } from '@adkit/confirmation';
import { InMemoryRunner, LlmAgent, createUserContent, getFunctionResponses } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { openApiToolset } from '../src/index.js';
import { startServer } from './support/petstore.js';
import { send } from './support/run.js';

/** What this test uses of @adkit/auth's oidc-provider harness (typed here: it is that package's test code, type-checked there). */
interface OidcServer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  verify(token: string): Promise<{ sub: string; scopes: string[] } | undefined>;
  close(): Promise<void>;
}
interface OidcHarness {
  startOidcServer(): Promise<OidcServer>;
  consent(authUri: string, redirectUri: string): Promise<string>;
}
const harnessPath = fileURLToPath(new URL('../../auth/test/support/oidcServer.ts', import.meta.url));
const { startOidcServer, consent } = (await import(/* @vite-ignore */ harnessPath)) as OidcHarness;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A resource server whose /me answers the token's subject and scopes; `refuseOnce` answers the first good token 401. */
async function resourceServer(idp: OidcServer, options: { refuseOnce?: boolean } = {}) {
  const tokens: string[] = [];
  let refused = !options.refuseOnce;
  const app = new Hono().on(['GET', 'POST'], '/me', async (c) => {
    const token = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    const info = token ? await idp.verify(token) : undefined;
    if (!info) return c.json({ message: 'a valid bearer token is required' }, 401);
    tokens.push(token!);
    if (!refused) {
      refused = true;
      return c.json({ message: 'token expired' }, 401);
    }
    return c.json({ sub: info.sub, scopes: info.scopes });
  });
  const server = await startServer(app);
  cleanups.push(() => server.close());
  return { server, tokens };
}

function spec(idp: OidcServer, kind: 'openIdConnect' | 'oauth2') {
  const scheme =
    kind === 'openIdConnect'
      ? { type: 'openIdConnect', openIdConnectUrl: `${idp.issuer}/.well-known/openid-configuration` }
      : {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: `${idp.issuer}/auth`,
              tokenUrl: `${idp.issuer}/token`,
              scopes: { openid: 'sign in', offline_access: 'stay signed in', 'api:read': 'read the API', 'api:write': 'not asked for' },
            },
          },
        };
  return {
    openapi: '3.1.0',
    info: { title: 'me', version: '1' },
    components: { securitySchemes: { idp: scheme } },
    paths: {
      '/me': {
        get: { operationId: 'getMe', security: [{ idp: ['openid', 'offline_access', 'api:read'] }], responses: { '200': { description: 'ok' } } },
        post: { operationId: 'updateMe', security: [{ idp: ['openid', 'offline_access', 'api:read'] }], responses: { '200': { description: 'ok' } } },
      },
    },
  };
}

async function setup(kind: 'openIdConnect' | 'oauth2', options: { refuseOnce?: boolean } = {}) {
  const idp = await startOidcServer();
  cleanups.push(() => idp.close());
  const { server, tokens } = await resourceServer(idp, options);
  const toolset = openApiToolset({
    spec: spec(idp, kind),
    baseUrl: server.url,
    allowPrivateAddresses: ['127.0.0.1'],
    auth: { idp: { oauth2: { clientId: idp.clientId, clientSecret: idp.clientSecret, redirectUri: idp.redirectUri } } },
  });
  const model = new ScriptedModel([functionCallResponse([{ name: 'getMe', args: {} }]), textResponse('You are alice.')]);
  const runner = new InMemoryRunner({
    agent: new LlmAgent({ name: 'assistant', model, toolsets: [toolset] }),
    autoCreateSession: true,
    credentials: credentialManager({ credentialService: new InMemoryCredentialService(), allowInsecureRequests: true }),
  });
  return { idp, server, tokens, model, runner };
}

describe('OAuth 2.0 with consent as a pause (AU-2, AU-7)', { timeout: 30_000 }, () => {
  it.each(['openIdConnect', 'oauth2'] as const)('%s: the call pauses for consent, then runs with the user\'s token; no secret reaches the model or the events', async (kind) => {
    const { idp, server, model, runner } = await setup(kind);
    await send(runner, createUserContent('who am I?'));
    expect(server.seen).toEqual([]);
    const session = await runner.sessionService.getSession({ appName: runner.appName, userId: 'u1', sessionId: 's1' });
    const [request] = pendingCredentialRequests(session!.events);
    expect(request!.originalCall.name).toBe('getMe');
    const authUri = new URL(request!.authUri!);
    expect(authUri.origin).toBe(idp.issuer);
    expect(authUri.searchParams.get('scope')!.split(' ').sort()).toEqual(['api:read', 'offline_access', 'openid']);

    const redirected = await consent(request!.authUri!, idp.redirectUri);
    const events = await send(runner, createCredentialReply(request!, { authResponseUri: redirected }));
    const response = events.flatMap((e) => getFunctionResponses(e)).find((r) => r.name === 'getMe');
    expect(response!.response).toMatchObject({ status: 200, body: { sub: 'alice', scopes: expect.arrayContaining(['api:read']) } });
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('You are alice.');
    const bearer = server.seen[0]!.headers.authorization!;
    expect(bearer).toMatch(/^Bearer \S+$/);
    const everything = JSON.stringify([model.requests, (await runner.sessionService.getSession({ appName: runner.appName, userId: 'u1', sessionId: 's1' }))!.events]);
    expect(everything).not.toContain(bearer.slice(7));
    expect(everything).not.toContain(idp.clientSecret);
  });

  it('HC-2 with OAuth: a POST asks for approval first, then for consent, each once (the approval kept across the consent pause); then it runs once', async () => {
    const idp = await startOidcServer();
    cleanups.push(() => idp.close());
    const { server } = await resourceServer(idp);
    const toolset = openApiToolset({
      spec: spec(idp, 'openIdConnect'),
      baseUrl: server.url,
      allowPrivateAddresses: ['127.0.0.1'],
      auth: { idp: { oauth2: { clientId: idp.clientId, clientSecret: idp.clientSecret, redirectUri: idp.redirectUri } } },
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'updateMe', args: {} }]), textResponse('Updated.')]);
    const runner = new InMemoryRunner({
      agent: new LlmAgent({ name: 'assistant', model, toolsets: [toolset] }),
      autoCreateSession: true,
      credentials: credentialManager({ credentialService: new InMemoryCredentialService(), allowInsecureRequests: true }),
    });
    const events = async () => (await runner.sessionService.getSession({ appName: runner.appName, userId: 'u1', sessionId: 's1' }))!.events;
    await send(runner, createUserContent('update me'));
    const [approval] = pendingConfirmations(await events());
    expect(approval!.originalCall.name).toBe('updateMe');
    expect(pendingCredentialRequests(await events())).toEqual([]);
    await send(runner, createConfirmationReply(approval!, { confirmed: true }));
    expect(server.seen).toEqual([]);
    const [request] = pendingCredentialRequests(await events());
    const last = await send(runner, createCredentialReply(request!, { authResponseUri: await consent(request!.authUri!, idp.redirectUri) }));
    expect(last.flatMap((e) => getFunctionResponses(e)).find((r) => r.name === 'updateMe')!.response).toMatchObject({ status: 200, body: { sub: 'alice' } });
    expect(server.seen.map((r) => r.method)).toEqual(['POST']);
    expect(pendingConfirmations(await events())).toEqual([]);
    expect(pendingCredentialRequests(await events())).toEqual([]);
  });

  it('a token the API refuses (401) is refreshed once and the call retried with the new one', async () => {
    const { idp, server, tokens, runner } = await setup('openIdConnect', { refuseOnce: true });
    await send(runner, createUserContent('who am I?'));
    const session = await runner.sessionService.getSession({ appName: runner.appName, userId: 'u1', sessionId: 's1' });
    const [request] = pendingCredentialRequests(session!.events);
    const events = await send(runner, createCredentialReply(request!, { authResponseUri: await consent(request!.authUri!, idp.redirectUri) }));
    expect(events.flatMap((e) => getFunctionResponses(e)).find((r) => r.name === 'getMe')!.response).toMatchObject({ status: 200, body: { sub: 'alice' } });
    expect(server.seen).toHaveLength(2);
    expect(tokens).toHaveLength(2);
    expect(tokens[1]).not.toBe(tokens[0]);
  });

  it('an OAuth client for a scheme that is not OAuth is a configuration error naming the fix', async () => {
    const toolset = openApiToolset({
      spec: { openapi: '3.1.0', info: { title: 't', version: '1' }, servers: [{ url: 'https://t.example.com' }], components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } }, paths: {} },
      auth: { key: { oauth2: { clientId: 'c' } } },
    });
    const { listingContext } = await import('./support/run.js');
    await expect(toolset.tools(listingContext())).rejects.toThrow(
      'openApiToolset: auth["key"] is an OAuth client, but the security scheme "key" is apiKey; give it {apiKey}, {token} or {username, password}.',
    );
  });
});
