// Pins the dev UI's consent card (#25): a pending adk_request_credential shows in the session view
// with its consent URL, and POST …/credentials sends the URL the provider redirected to as the
// reply, which resumes the paused call; a bad body or a request that does not wait is refused.
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryRunner, LlmAgent, credentialKeyOf, type AuthConfig, type AuthCredential, type CredentialManager } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { serveDevUi, type DevUiServer } from '../src/index.js';

const auth: AuthConfig = {
  authScheme: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://idp.test/auth', tokenUrl: 'https://idp.test/token' } } },
  rawAuthCredential: { authType: 'oauth2', oauth2: { clientId: 'app', clientSecret: 'dev-ui-secret-42', redirectUri: 'https://app.test/cb' } },
};

/** A manager with the contract's behaviour and no network (the OAuth round trip is @adkit/auth's to test). */
function manager(): CredentialManager {
  const store = new Map<string, AuthCredential>();
  return {
    getCredential: async (config, scope) => store.get(`${scope.userId}/${await credentialKeyOf(config)}`),
    createRequest: async (config) => ({ ...config, exchangedAuthCredential: { authType: 'oauth2', oauth2: { clientId: 'app', state: 's1', redirectUri: 'https://app.test/cb', authUri: 'https://idp.test/auth?state=s1' } } }),
    completeRequest: async (request, reply, scope) => {
      if (new URL(reply.authResponseUri).searchParams.get('state') !== 's1') throw new Error('the state does not match');
      store.set(`${scope.userId}/${request.credentialKey}`, { authType: 'oauth2', oauth2: { accessToken: 'dev-ui-token-77' } });
    },
  };
}

const servers: DevUiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function view(server: DevUiServer, path = ''): Promise<Record<string, any>> {
  for (let i = 0; i < 200; i++) {
    const current = (await (await fetch(new URL(`/api/apps/app/users/u/sessions/s${path}`, server.url))).json()) as Record<string, any>;
    if (!current.running) return current;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the run did not end');
}

describe('dev UI: consents', () => {
  it('shows the consent URL, and the pasted redirect URL resumes the call', async () => {
    const tool = functionTool({
      name: 'calendar',
      description: 'Reads the calendar.',
      parameters: Type.Object({}),
      auth,
      execute: (_args, ctx) => ({ events: 1, tokenLength: ctx.credential!.oauth2!.accessToken!.length }),
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'calendar', args: {}, id: 'c1' }]), textResponse('One event.')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'assistant', model, tools: [tool] }), appName: 'app', credentials: manager() });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const server = await serveDevUi({ runner, port: 0, userId: 'u', logger: { warn: () => {}, error: () => {} } });
    servers.push(server);
    const post = (path: string, body: unknown) =>
      fetch(new URL(`/api/apps/app/users/u/sessions/s/${path}`, server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('messages', { text: "what's on?" })).status).toBeLessThan(300);
    const paused = await view(server);
    expect(paused.pending.credentials).toEqual([
      { callId: expect.stringMatching(/^adk-/), toolName: 'calendar', author: 'assistant', authUri: 'https://idp.test/auth?state=s1', redirectUri: 'https://app.test/cb' },
    ]);
    const callId = paused.pending.credentials[0].callId as string;
    expect((await post('credentials', { callId, authResponseUri: 42 })).status).toBe(400);
    expect((await post('credentials', { callId: 'adk-nope', authResponseUri: 'https://app.test/cb?code=x&state=s1' })).status).toBe(409);
    expect((await post('credentials', { callId, authResponseUri: 'https://app.test/cb?code=x&state=s1' })).status).toBeLessThan(300);
    const done = await view(server);
    expect(done.pending.credentials).toEqual([]);
    const text = JSON.stringify(done);
    expect(text).toContain('"tokenLength":15');
    expect(text).toContain('One event.');
    // The page and its data never show the client secret, the token or the code.
    const page = await (await fetch(server.url)).text();
    for (const shown of [text, page]) for (const secret of ['dev-ui-secret-42', 'dev-ui-token-77', 'code=x']) expect(shown).not.toContain(secret);
  });
});
