// The credential protocol under attack and failure, against the real provider (AU-6, AU-8): a
// swapped redirect URI or token endpoint, a state mismatch, a replayed code, a reply for another
// user's session, a refresh token revoked mid-run, the provider down, a consent refused or never
// given. Each ends with nothing exchanged that should not be, and with an answer the model can act on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { InMemoryRunner, LlmAgent, createUserContent, credentialKeyOf, getFunctionCalls, getFunctionResponses, type Event } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { CredentialError, InMemoryCredentialService, createCredentialReply, credentialManager, pendingCredentialRequests, type CredentialService } from '../src/index.js';
import { consent, startOidcServer, type OidcServer } from './support/oidcServer.js';
import { startRestApi, type RestApi } from './support/restApi.js';
import { apiAuth, listRepos } from './support/fixture.js';

let idp: OidcServer;
let api: RestApi;
beforeAll(async () => {
  idp = await startOidcServer();
  api = await startRestApi(idp);
});
afterAll(async () => {
  await api?.close();
  await idp?.close();
});

async function collect(gen: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of gen) events.push(event);
  return events;
}

/** A runner whose model calls list_repos, then summarises; the first turn already run (paused). */
async function paused(options: { service?: CredentialService; now?: () => number; userId?: string; steps?: number } = {}) {
  const service = options.service ?? new InMemoryCredentialService();
  const credentials = credentialManager({ credentialService: service, allowInsecureRequests: true, now: options.now });
  const model = new ScriptedModel([
    functionCallResponse([{ name: 'list_repos', args: {}, id: 'call-1' }]),
    ...Array.from({ length: options.steps ?? 4 }, (_, i) => (i % 2 === 0 ? textResponse(`answer ${i}`) : functionCallResponse([{ name: 'list_repos', args: {}, id: `call-${i + 2}` }]))),
  ]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'assistant', model, tools: [listRepos(idp, api.url)] }), appName: 'app', credentials });
  const userId = options.userId ?? 'alice';
  await runner.sessionService.createSession({ appName: 'app', userId, sessionId: 's' });
  const first = await collect(runner.runAsync({ userId, sessionId: 's', newMessage: createUserContent('my repos?') }));
  const [pending] = pendingCredentialRequests(first);
  const run = (message: Parameters<typeof runner.runAsync>[0]['newMessage'], user = userId, sessionId = 's') =>
    collect(runner.runAsync({ userId: user, sessionId, newMessage: message }));
  return { runner, model, service, credentials, pending: pending!, run, userId };
}

function answerOf(events: Event[], id = 'call-1') {
  return events.flatMap(getFunctionResponses).find((r) => r.id === id && r.name === 'list_repos')?.response;
}

describe('hostile and failing consents', () => {
  it('AU-8: a state mismatch is refused before anything is exchanged; the pending consent stays unused', async () => {
    const { pending, run, model } = await paused();
    const real = await consent(pending.authUri!, idp.redirectUri);
    const forged = new URL(real);
    forged.searchParams.set('state', 'attacker-state');
    const events = await run(createCredentialReply(pending, { authResponseUri: forged.href }));
    expect(answerOf(events)).toEqual({
      error: 'Authorization for tool "list_repos" failed: the state of the response does not match the request. The tool did not run; ask the user whether to try again.',
    });
    expect(api.seen.some((h) => h.includes(new URL(real).searchParams.get('code')!))).toBe(false);
    expect(model.requests).toHaveLength(2);
  });

  it('AU-8: a swapped redirect URI, in the reply or as the response URI, is refused', async () => {
    for (const swap of ['redirectUri', 'responseUri'] as const) {
      const { pending, run } = await paused();
      const real = await consent(pending.authUri!, idp.redirectUri);
      const reply =
        swap === 'redirectUri'
          ? createCredentialReply(pending, { authResponseUri: real, redirectUri: 'https://evil.test/cb' })
          : createCredentialReply(pending, { authResponseUri: real.replace(idp.redirectUri, 'https://evil.test/oauth/callback') });
      const events = await run(reply);
      expect(String((answerOf(events) as { error: string }).error)).toMatch(/failed: the (redirect URI of the reply is not the one of the request|response URI is not at the redirect URI of the request)\./);
    }
  });

  it('AU-8: a token endpoint in the reply is never called; the stored request\'s is', async () => {
    let evilHits = 0;
    const evil = new Hono();
    evil.all('*', (c) => {
      evilHits++;
      return c.json({ access_token: 'evil', token_type: 'bearer' });
    });
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: evil.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    try {
      const evilUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { pending, run } = await paused();
      const real = await consent(pending.authUri!, idp.redirectUri);
      const reply = createCredentialReply(pending, { authResponseUri: real });
      const response = reply.parts![0]!.functionResponse!.response as Record<string, unknown>;
      response.authScheme = { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: `${evilUrl}/auth`, tokenUrl: `${evilUrl}/token` } } };
      response.credentialKey = 'another-key';
      const events = await run(reply);
      expect(answerOf(events)).toEqual({ owner: 'alice', repos: ['adkit', 'notes'] });
      expect(evilHits).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('AU-8: a replayed reply is refused by the flow, a replayed code by the manager and by the provider', async () => {
    const { pending, run, credentials, runner } = await paused();
    const real = await consent(pending.authUri!, idp.redirectUri);
    const reply = createCredentialReply(pending, { authResponseUri: real });
    expect(answerOf(await run(reply))).toEqual({ owner: 'alice', repos: ['adkit', 'notes'] });
    expect((await run(reply)).map((e) => e.errorCode)).toEqual(['CREDENTIAL_ALREADY_USED']);
    // The manager itself: the pending consent was taken, the same response fails.
    const scope = { appName: 'app', userId: 'alice', sessionId: 's' };
    await expect(credentials.completeRequest(pending.authConfig, { authResponseUri: real }, scope)).rejects.toThrow(
      'the consent request is unknown to this user or was already used; ask again',
    );
    // A new request, answered with the old (spent) code: the provider refuses it.
    const fresh = await credentials.createRequest(apiAuth(idp), scope);
    const state = fresh.exchangedAuthCredential!.oauth2!.state!;
    const replayed = new URL(real);
    replayed.searchParams.set('state', state);
    await expect(credentials.completeRequest(fresh, { authResponseUri: replayed.href }, scope)).rejects.toThrow(/the code exchange failed: the server answered invalid_grant/);
    expect(runner).toBeDefined();
  });

  it("AU-8: a reply in another user's session is refused, and another user's response cannot complete this user's request", async () => {
    const alice = await paused({ userId: 'alice' });
    const aliceResponse = await consent(alice.pending.authUri!, idp.redirectUri, { login: 'alice' });
    // Bob sends alice's reply in his own session: no such request there.
    await alice.runner.sessionService.createSession({ appName: 'app', userId: 'bob', sessionId: 'b' });
    const refused = await alice.run(createCredentialReply(alice.pending, { authResponseUri: aliceResponse }), 'bob', 'b');
    expect(refused.map((e) => e.errorCode)).toEqual(['CREDENTIAL_REFUSED']);
    // The manager keys pending consents per user: bob's scope does not know alice's state.
    await expect(
      alice.credentials.completeRequest(alice.pending.authConfig, { authResponseUri: aliceResponse }, { appName: 'app', userId: 'bob', sessionId: 'b' }),
    ).rejects.toThrow(CredentialError);
    // Alice's own reply still works: nothing was spent by the attempts.
    expect(answerOf(await alice.run(createCredentialReply(alice.pending, { authResponseUri: aliceResponse })))).toEqual({ owner: 'alice', repos: ['adkit', 'notes'] });
  });

  it('AU-6: an expired token is refreshed; a refresh token revoked mid-run makes the tool ask again', async () => {
    let clock = Date.now();
    const { pending, run, service } = await paused({ now: () => clock });
    expect(answerOf(await run(createCredentialReply(pending, { authResponseUri: await consent(pending.authUri!, idp.redirectUri) })))).toBeDefined();
    const key = { appName: 'app', userId: 'alice', name: await credentialKeyOf(apiAuth(idp)) };
    const before = (await service.get(key)) as { oauth2: { accessToken: string; refreshToken: string } };

    // Two hours later the access token has expired: the next call refreshes it first.
    clock += 2 * 3600_000;
    const refreshed = await run(createUserContent('again'));
    expect(answerOf(refreshed, 'call-3')).toEqual({ owner: 'alice', repos: ['adkit', 'notes'] });
    const after = (await service.get(key)) as { oauth2: { accessToken: string; refreshToken: string } };
    expect(after.oauth2.accessToken).not.toBe(before.oauth2.accessToken);
    expect(api.seen.at(-1)).toBe(`Bearer ${after.oauth2.accessToken}`);

    // The user revokes the app at the provider (refresh token and the grant); the token expires.
    const revoke = await fetch(`${idp.issuer}/token/revocation`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa(`${idp.clientId}:${idp.clientSecret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: after.oauth2.refreshToken, token_type_hint: 'refresh_token' }),
    });
    expect(revoke.status).toBe(200);
    clock += 2 * 3600_000;
    const asked = await run(createUserContent('and again'));
    expect(answerOf(asked, 'call-3')).toBeUndefined();
    expect(pendingCredentialRequests(asked)).toHaveLength(1);
    expect(await service.get(key)).toBeUndefined();
  });

  it('AU-6: a token the API refuses (401) is refreshed once and the call succeeds', async () => {
    const { pending, run, service } = await paused();
    await run(createCredentialReply(pending, { authResponseUri: await consent(pending.authUri!, idp.redirectUri) }));
    const key = { appName: 'app', userId: 'alice', name: await credentialKeyOf(apiAuth(idp)) };
    const stored = (await service.get(key)) as { oauth2: { accessToken: string } };
    // The provider drops the access token (a logout elsewhere, a key rotation): the API answers 401.
    await (await idp.provider.AccessToken.find(stored.oauth2.accessToken))!.destroy();
    const seenBefore = api.seen.length;
    const events = await run(createUserContent('again'));
    expect(answerOf(events, 'call-3')).toEqual({ owner: 'alice', repos: ['adkit', 'notes'] });
    expect(api.seen.slice(seenBefore)).toHaveLength(2);
  });

  it('AU-8: the provider down at exchange time: the model is told, with no code or URI, and a later consent works', async () => {
    const { pending, run, credentials } = await paused();
    const real = await consent(pending.authUri!, idp.redirectUri);
    await idp.stop();
    let events: Event[];
    try {
      events = await run(createCredentialReply(pending, { authResponseUri: real }));
    } finally {
      await idp.start();
    }
    const error = String((answerOf(events) as { error: string }).error);
    expect(error).toMatch(/^Authorization for tool "list_repos" failed: the code exchange failed: the server could not be reached \(ECONNREFUSED\)\./);
    expect(error).not.toContain(new URL(real).searchParams.get('code')!);
    // Back up: a new consent goes through.
    const scope = { appName: 'app', userId: 'alice', sessionId: 's' };
    const again = await credentials.createRequest(apiAuth(idp), scope);
    await credentials.completeRequest(again, { authResponseUri: await consent(again.exchangedAuthCredential!.oauth2!.authUri!, idp.redirectUri) }, scope);
    expect(await credentials.getCredential(apiAuth(idp), scope)).toMatchObject({ oauth2: { tokenType: 'bearer' } });
  });

  it('AU-8: a consent the user refuses answers the call with the provider\'s error; one never given leaves the run paused', async () => {
    const { pending, run, model } = await paused();
    const denied = await consent(pending.authUri!, idp.redirectUri, { deny: true });
    expect(new URL(denied).searchParams.get('error')).toBe('access_denied');
    const events = await run(createCredentialReply(pending, { authResponseUri: denied }));
    expect(String((answerOf(events) as { error: string }).error)).toContain('the authorization server answered access_denied');

    const never = await paused();
    expect(never.model.requests).toHaveLength(1);
    const session = (await never.runner.sessionService.getSession({ appName: 'app', userId: 'alice', sessionId: 's' }))!;
    expect(pendingCredentialRequests(session.events).map((p) => p.call.id)).toEqual([never.pending.call.id]);
    expect(session.events.flatMap(getFunctionCalls).filter((c) => c.name === 'list_repos')).toHaveLength(1);
    expect(model.requests).toHaveLength(2);
  });
  it('AU-8: a 50 MB response URI is refused without being kept, and a reply nested 10,000 deep is refused before anything is saved', async () => {
    const { pending, run, runner } = await paused();
    const huge = `${idp.redirectUri}?state=${pending.authConfig.exchangedAuthCredential!.oauth2!.state}&code=${'x'.repeat(50 * 1024 * 1024)}`;
    const events = await run(createCredentialReply(pending, { authResponseUri: huge }));
    expect(answerOf(events)).toEqual({
      error: 'Authorization for tool "list_repos" failed: the response URI is missing or longer than 8192 characters. The tool did not run; ask the user whether to try again.',
    });
    const saved = (await runner.sessionService.getSession({ appName: 'app', userId: 'alice', sessionId: 's' }))!;
    expect(JSON.stringify(saved.events).length).toBeLessThan(100_000);

    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let i = 0; i < 10_000; i++) cursor = cursor.next = {};
    const reply = createCredentialReply(pending, { authResponseUri: `${idp.redirectUri}?code=a&state=b` });
    (reply.parts![0]!.functionResponse!.response as Record<string, unknown>).extra = deep;
    const before = saved.events.length;
    await expect(run(reply)).rejects.toThrow(/nests deeper than/);
    expect((await runner.sessionService.getSession({ appName: 'app', userId: 'alice', sessionId: 's' }))!.events).toHaveLength(before);
  });
});
