// Pins MCP servers behind OAuth (AU-9, #25): discovery the MCP way (RFC 9728 then RFC 8414/OIDC
// through the MCP SDK), dynamic client registration, each user's consent through adkit's credential
// protocol (an adk_request_credential pause while listing, with the authorize tool, or during a
// call), the retry after consent, one session per user's token, and a refresh on a 401. Real parts:
// oidc-provider, an MCP SDK server with requireBearerAuth, @adkit/auth's credential manager.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryRunner, LlmAgent, createUserContent, getFunctionResponses, type Event } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { InMemoryCredentialService, createCredentialReply, credentialManager, pendingCredentialRequests } from '@adkit/auth';
import { consent, startOidcServer, type OidcServer } from '../../auth/test/support/oidcServer.js';
import { mcpToolset } from '../src/index.js';
import { protectedMcpServer, type ProtectedMcpServer } from './support/protectedServer.js';

let idp: OidcServer;
let mcp: ProtectedMcpServer;
beforeAll(async () => {
  idp = await startOidcServer({ registration: true });
  mcp = await protectedMcpServer(idp.issuer, idp);
});
afterAll(async () => {
  await mcp?.close();
  await idp?.close();
});

async function collect(gen: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of gen) events.push(event);
  return events;
}

function setup(steps: (Parameters<typeof functionCallResponse>[0] | 'text')[]) {
  const service = new InMemoryCredentialService();
  const credentials = credentialManager({ credentialService: service, allowInsecureRequests: true });
  const toolset = mcpToolset({ url: mcp.url, auth: { redirectUri: idp.redirectUri, clientName: 'adkit tests' } }, { name: 'github' });
  const model = new ScriptedModel(steps.map((step) => (step === 'text' ? textResponse('done') : functionCallResponse(step))));
  const agent = new LlmAgent({ name: 'assistant', model, toolsets: [toolset] });
  const runner = new InMemoryRunner({ agent, appName: 'app', credentials });
  return { runner, model, toolset, service, credentials };
}

describe('mcpToolset({url, auth})', () => {
  it('AU-9: with no consent the listing is one authorize tool; calling it pauses for consent; after it the server\'s tools are listed and called with the user\'s token', async () => {
    const { runner, model, toolset, service } = setup([
      [{ name: 'authorize_github', args: {}, id: 'call-a' }],
      [{ name: 'whoami', args: {}, id: 'call-w' }],
      'text',
    ]);
    try {
      await runner.sessionService.createSession({ appName: 'app', userId: 'alice', sessionId: 's' });
      const first = await collect(runner.runAsync({ userId: 'alice', sessionId: 's', newMessage: createUserContent('who am I on github?') }));
      expect(model.requests[0]!.tools && Object.keys(model.requests[0]!.tools)).toEqual(['authorize_github']);
      const [pending] = pendingCredentialRequests(first);
      expect(pending!.originalCall.name).toBe('authorize_github');
      // Discovered from the MCP server's protected-resource metadata, and registered dynamically.
      expect(pending!.authUri!.startsWith(`${idp.issuer}/auth?`)).toBe(true);
      const clientId = new URL(pending!.authUri!).searchParams.get('client_id');
      expect(clientId).not.toBe(idp.clientId);
      expect(await idp.provider.Client.find(clientId!)).toBeDefined();

      const responseUri = await consent(pending!.authUri!, idp.redirectUri, { login: 'alice' });
      const second = await collect(runner.runAsync({ userId: 'alice', sessionId: 's', newMessage: createCredentialReply(pending!, { authResponseUri: responseUri }) }));
      const responses = second.flatMap(getFunctionResponses);
      expect(responses.find((r) => r.id === 'call-a')!.response).toEqual({ status: 'Authorized: the tools are available now.' });
      expect(Object.keys(model.requests[1]!.tools)).toContain('whoami');
      expect(responses.find((r) => r.id === 'call-w')!.response).toEqual({ output: 'you are alice' });
      // No token or code in what the session keeps, what the client got, or what the model was sent.
      const stored = (await service.get({ appName: 'app', userId: 'alice', name: `mcp:${mcp.url}` })) as { oauth2: Record<string, string> };
      const secrets = [stored.oauth2.accessToken!, stored.oauth2.refreshToken!, new URL(responseUri).searchParams.get('code')!];
      const saved = (await runner.sessionService.getSession({ appName: 'app', userId: 'alice', sessionId: 's' }))!.events;
      for (const text of [JSON.stringify(saved), JSON.stringify([...first, ...second]), JSON.stringify(model.requests)])
        for (const secret of secrets) expect(text.includes(secret)).toBe(false);
      expect(mcp.tokens).toContain(stored.oauth2.accessToken);
    } finally {
      await toolset.close();
    }
  });

  it('AU-9: one session per user\'s token; a token the server refuses is refreshed once; a user without consent is asked, not served another\'s session', async () => {
    const { runner, toolset, service, credentials } = setup([
      [{ name: 'authorize_github', args: {}, id: 'a1' }],
      'text',
      [{ name: 'whoami', args: {}, id: 'w1' }],
      'text',
      [{ name: 'whoami', args: {}, id: 'w2' }],
      'text',
      [{ name: 'authorize_github', args: {}, id: 'b1' }],
      'text',
    ]);
    try {
      await runner.sessionService.createSession({ appName: 'app', userId: 'alice', sessionId: 's' });
      await runner.sessionService.createSession({ appName: 'app', userId: 'bob', sessionId: 'b' });
      const first = await collect(runner.runAsync({ userId: 'alice', sessionId: 's', newMessage: createUserContent('connect') }));
      const [pending] = pendingCredentialRequests(first);
      await collect(runner.runAsync({ userId: 'alice', sessionId: 's', newMessage: createCredentialReply(pending!, { authResponseUri: await consent(pending!.authUri!, idp.redirectUri) }) }));
      const sessionsBefore = mcp.sessions;
      const call = await collect(runner.runAsync({ userId: 'alice', sessionId: 's', newMessage: createUserContent('who?') }));
      expect(call.flatMap(getFunctionResponses).find((r) => r.id === 'w1')!.response).toEqual({ output: 'you are alice' });

      // The provider drops alice's access token: the server answers 401, the toolset refreshes once.
      const stored = (await service.get({ appName: 'app', userId: 'alice', name: `mcp:${mcp.url}` })) as { oauth2: { accessToken: string } };
      await (await idp.provider.AccessToken.find(stored.oauth2.accessToken))!.destroy();
      const again = await collect(runner.runAsync({ userId: 'alice', sessionId: 's', newMessage: createUserContent('who now?') }));
      expect(again.flatMap(getFunctionResponses).find((r) => r.id === 'w2')!.response).toEqual({ output: 'you are alice' });
      const refreshed = (await service.get({ appName: 'app', userId: 'alice', name: `mcp:${mcp.url}` })) as { oauth2: { accessToken: string } };
      expect(refreshed.oauth2.accessToken).not.toBe(stored.oauth2.accessToken);
      // A new token is a new header set: a new session for it.
      expect(mcp.sessions).toBeGreaterThan(sessionsBefore);

      // Bob has not consented: he gets the authorize tool, never alice's session or token.
      const bob = await collect(runner.runAsync({ userId: 'bob', sessionId: 'b', newMessage: createUserContent('who am I?') }));
      expect(pendingCredentialRequests(bob).map((p) => p.originalCall.name)).toEqual(['authorize_github']);
      expect(await credentials.getCredential((pendingCredentialRequests(bob)[0]!.authConfig), { appName: 'app', userId: 'bob', sessionId: 'b' })).toBeUndefined();
    } finally {
      await toolset.close();
    }
  });
  it('AU-9: consent lost during a call (access and refresh token revoked after listing) pauses that call; after consent it runs again', async () => {
    const service = new InMemoryCredentialService();
    const credentials = credentialManager({ credentialService: service, allowInsecureRequests: true });
    const toolset = mcpToolset({ url: mcp.url, auth: { redirectUri: idp.redirectUri } }, { name: 'github' });
    const revokeAll = async () => {
      const stored = (await service.get({ appName: 'app', userId: 'carol', name: `mcp:${mcp.url}` })) as { oauth2: { accessToken: string; refreshToken: string } };
      await (await idp.provider.AccessToken.find(stored.oauth2.accessToken))!.destroy();
      await (await idp.provider.RefreshToken.find(stored.oauth2.refreshToken))!.destroy();
    };
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'authorize_github', args: {}, id: 'a' }]),
      textResponse('connected'),
      async () => {
        // Listed with a good token; revoked before the call is made.
        await revokeAll();
        return functionCallResponse([{ name: 'whoami', args: {}, id: 'w' }]);
      },
      textResponse('you are carol'),
    ]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'assistant', model, toolsets: [toolset] }), appName: 'app', credentials });
    try {
      await runner.sessionService.createSession({ appName: 'app', userId: 'carol', sessionId: 's' });
      const run = (newMessage: Parameters<typeof runner.runAsync>[0]['newMessage']) => collect(runner.runAsync({ userId: 'carol', sessionId: 's', newMessage }));
      const [first] = pendingCredentialRequests(await run(createUserContent('connect')));
      await run(createCredentialReply(first!, { authResponseUri: await consent(first!.authUri!, idp.redirectUri, { login: 'carol' }) }));
      const paused = await run(createUserContent('who am I?'));
      expect(paused.flatMap(getFunctionResponses).find((r) => r.id === 'w')!.response).toEqual({ status: 'Pending User Authorization.' });
      const [second] = pendingCredentialRequests(paused);
      expect(second!.originalCall.name).toBe('whoami');
      const resumed = await run(createCredentialReply(second!, { authResponseUri: await consent(second!.authUri!, idp.redirectUri, { login: 'carol' }) }));
      expect(resumed.flatMap(getFunctionResponses).find((r) => r.id === 'w' && r.name === 'whoami')!.response).toEqual({ output: 'you are carol' });
      expect(resumed.at(-1)!.content!.parts![0]!.text).toBe('you are carol');
    } finally {
      await toolset.close();
    }
  });
  it('AU-9: a restarted app (a new toolset, registered anew) keeps the user\'s tokens and refreshes them with the client they were issued to', async () => {
    const service = new InMemoryCredentialService();
    const build = (call: string, id: string) => {
      const toolset = mcpToolset({ url: mcp.url, auth: { redirectUri: idp.redirectUri } }, { name: 'github' });
      const model = new ScriptedModel([functionCallResponse([{ name: call, args: {}, id }]), textResponse('ok')]);
      const credentials = credentialManager({ credentialService: service, allowInsecureRequests: true });
      return { toolset, runner: new InMemoryRunner({ agent: new LlmAgent({ name: 'assistant', model, toolsets: [toolset] }), appName: 'app', credentials }) };
    };
    const one = build('authorize_github', 'a');
    await one.runner.sessionService.createSession({ appName: 'app', userId: 'dave', sessionId: 's' });
    const [pending] = pendingCredentialRequests(await collect(one.runner.runAsync({ userId: 'dave', sessionId: 's', newMessage: createUserContent('connect') })));
    await collect(one.runner.runAsync({ userId: 'dave', sessionId: 's', newMessage: createCredentialReply(pending!, { authResponseUri: await consent(pending!.authUri!, idp.redirectUri, { login: 'dave' }) }) }));
    await one.toolset.close();
    const stored = (await service.get({ appName: 'app', userId: 'dave', name: `mcp:${mcp.url}` })) as { oauth2: { accessToken: string; clientId: string } };
    await (await idp.provider.AccessToken.find(stored.oauth2.accessToken))!.destroy();

    const two = build('whoami', 'w');
    try {
      await two.runner.sessionService.createSession({ appName: 'app', userId: 'dave', sessionId: 's' });
      const events = await collect(two.runner.runAsync({ userId: 'dave', sessionId: 's', newMessage: createUserContent('who am I?') }));
      expect(events.flatMap(getFunctionResponses).find((r) => r.id === 'w')!.response).toEqual({ output: 'you are dave' });
      const refreshed = (await service.get({ appName: 'app', userId: 'dave', name: `mcp:${mcp.url}` })) as { oauth2: { accessToken: string; clientId: string } };
      expect(refreshed.oauth2.clientId).toBe(stored.oauth2.clientId);
      expect(refreshed.oauth2.accessToken).not.toBe(stored.oauth2.accessToken);
    } finally {
      await two.toolset.close();
    }
  });
});
