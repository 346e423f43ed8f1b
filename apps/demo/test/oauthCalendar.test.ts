// The demo's MCP server behind OAuth (#25), offline: oidc-provider and the calendar MCP server on
// 127.0.0.1. The consent link comes from pendingCredentialRequests and points at the local
// provider; the consent is given on the provider's own pages; the reply resumes the call, which
// runs with the user's token. Nothing the user or the dev UI sees holds a token or the code
// (the transcript, the session's events, the dev-UI page and its data are grepped for them).
// Bad input tried: a forged reply (wrong state), the same reply twice, a link to another host,
// requests to the MCP server without a token, with a made-up one, and in another user's session.
import { serveDevUi } from '@adkit/dev-ui';
import { createUserContent, type Event } from '@adkit/flow';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_NAME, DemoApp, type Conversation } from '../src/demoApp.js';
import { plainOutput } from '../src/output.js';
import { createStyle } from '../src/style.js';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

async function openApp(web = false) {
  let text = '';
  const app = await DemoApp.open({ env: {}, style: createStyle(false), output: plainOutput((chunk) => (text += chunk)), web, logger: { warn: () => {}, error: () => {} } });
  opened.push(app);
  return { app, printed: () => text };
}

/** The user's access and refresh token from the credential service, and the code of the consent. */
async function secretsOf(app: DemoApp, userId: string, authResponseUri: string): Promise<string[]> {
  const stored = (await app.credentialService.get({ appName: APP_NAME, userId, name: `mcp:${app.calendar.url}` })) as { oauth2?: { accessToken?: string; refreshToken?: string } } | undefined;
  const secrets = [stored?.oauth2?.accessToken, stored?.oauth2?.refreshToken, new URL(authResponseUri).searchParams.get('code')];
  for (const secret of secrets) expect(secret).toEqual(expect.any(String));
  return secrets as string[];
}

async function eventsOf(app: DemoApp, conversation: Conversation): Promise<Event[]> {
  return (await app.runner.sessionService.getSession({ appName: APP_NAME, ...conversation }))!.events;
}

describe('the demo calendar behind OAuth', { timeout: 60_000 }, () => {
  it('AU-2..AU-5, AU-9: the consent link is the local provider\'s; the consent resumes the call with the user\'s token; no token or code is printed or stored in the session', async () => {
    const { app, printed } = await openApp();
    const ann: Conversation = { userId: 'ann', sessionId: 'oauth' };
    await app.turn(ann, createUserContent('Show my calendar for today.'));
    const [request, ...more] = (await app.pending(ann)).credentials;
    expect(more).toEqual([]);
    expect(request!.originalCall.name).toBe('authorize_calendar');
    const link = new URL(request!.authUri!);
    expect(link.origin + link.pathname).toBe(`${app.calendar.provider.issuer}/auth`);
    expect(Object.fromEntries(link.searchParams)).toMatchObject({ redirect_uri: app.calendar.redirectUri, response_type: 'code', code_challenge_method: 'S256' });
    expect(link.searchParams.get('scope')!.split(' ')).toContain('calendar:read');

    // A forged reply (the state is not the request's) is refused: the tool does not run, the model is told.
    await app.consent(ann, request!, `${app.calendar.redirectUri}?code=forged&state=not-the-state`);
    expect(printed()).toContain('authorize_calendar ✗ Authorization for tool "authorize_calendar" failed: the state of the response does not match the request.');
    expect(printed()).not.toContain('list_events ←');
    expect((await app.pending(ann)).credentials).toEqual([]);

    // Asked again: a new consent request, a new link.
    await app.turn(ann, createUserContent('Show my calendar for today.'));
    const [again] = (await app.pending(ann)).credentials;
    expect(again!.call.id).not.toBe(request!.call.id);
    expect(new URL(again!.authUri!).searchParams.get('state')).not.toBe(link.searchParams.get('state'));

    const authResponseUri = await app.consentInBrowser(ann, again!);
    expect(authResponseUri.startsWith(`${app.calendar.redirectUri}?`)).toBe(true);
    await app.consent(ann, again!, authResponseUri);
    expect(printed()).toContain('  list_events ← {"output":"ann\'s calendar today: 09:00 stand-up; 12:30 lunch with Sam; 16:00 train to the airport"}');
    expect((await app.pending(ann)).credentials).toEqual([]);

    // The same reply again resumes nothing: the call ran once.
    await app.consent(ann, again!, authResponseUri).catch(() => {});
    expect(printed().split('list_events ←').length - 1).toBe(1);

    // Signed in now: the next question goes straight to list_events, no consent asked.
    await app.turn(ann, createUserContent("What's in my calendar tomorrow?"));
    expect(printed()).toContain("ann's calendar tomorrow: 08:15 flight to Lisbon");
    expect((await app.pending(ann)).credentials).toEqual([]);

    const secrets = await secretsOf(app, 'ann', authResponseUri);
    const events = JSON.stringify(await eventsOf(app, ann));
    for (const text of [printed(), events]) for (const secret of secrets) expect(text.includes(secret)).toBe(false);
  });

  it('--web: the dev UI\'s consent card has the link; the URL the browser comes back to, posted to it, resumes the call; the page and its data hold no token', async () => {
    const { app } = await openApp(true);
    const devUi = await serveDevUi({ runner: app.runner, port: 0, userId: 'ann', logger: { warn: () => {}, error: () => {} } });
    opened.push(devUi);
    const base = new URL(`/api/apps/${APP_NAME}/users/ann/sessions/web`, devUi.url).href;
    await app.runner.sessionService.createSession({ appName: APP_NAME, userId: 'ann', sessionId: 'web' });
    const view = async (path = ''): Promise<Record<string, any>> => {
      for (let i = 0; i < 400; i++) {
        const current = (await (await fetch(`${base}${path}`)).json()) as Record<string, any>;
        if (!current.running) return current;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('the run did not end');
    };
    const post = (path: string, body: unknown) => fetch(`${base}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('messages', { text: 'Show my calendar' })).status).toBeLessThan(300);
    const paused = await view();
    expect(paused.pending.credentials).toEqual([
      { callId: expect.any(String), toolName: 'authorize_calendar', author: 'assistant', authUri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/auth\?/), redirectUri: app.calendar.redirectUri },
    ]);
    const card = paused.pending.credentials[0];
    // The browser: the provider's pages, then the demo's callback page, which says to paste its address.
    const authResponseUri = await app.calendar.provider.consentAs('ann', card.authUri, card.redirectUri);
    const callback = await fetch(authResponseUri);
    expect(await callback.text()).toContain('paste it into the demo');
    expect((await post('credentials', { callId: card.callId, authResponseUri })).status).toBeLessThan(300);
    const done = await view();
    expect(done.pending.credentials).toEqual([]);
    expect(JSON.stringify(done)).toContain("ann's calendar today: 09:00 stand-up");

    const secrets = await secretsOf(app, 'ann', authResponseUri);
    const shown = [
      await (await fetch(devUi.url)).text(),
      await (await fetch(new URL('/assets/page.js', devUi.url))).text(),
      JSON.stringify(done),
      await (await fetch(`${base}/timeline`)).text(),
      JSON.stringify(await eventsOf(app, { userId: 'ann', sessionId: 'web' })),
    ];
    for (const text of shown) for (const secret of secrets) expect(text.includes(secret)).toBe(false);
  });

  it('the MCP server answers only bearer tokens its provider issued, a session only its own user; the demo signs in only on its own provider', async () => {
    const { app } = await openApp();
    const mcp = app.calendar.url;
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const send = (headers: Record<string, string>, body: unknown = initialize) =>
      fetch(mcp, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
    for (const headers of [{}, { authorization: 'Bearer made-up-token' }, { authorization: 'Basic YW5uOmFueQ==' }] as Record<string, string>[]) {
      const refused = await send(headers);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${new URL(mcp).origin}/.well-known/oauth-protected-resource/mcp"`);
    }
    const metadata = (await (await fetch(`${new URL(mcp).origin}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ resource: mcp, authorization_servers: [app.calendar.provider.issuer] });

    // Two users sign in; bob's token does not reach ann's MCP session.
    const tokenOf = async (userId: string) => {
      const conversation = { userId, sessionId: `s-${userId}` };
      await app.turn(conversation, createUserContent('show my calendar'));
      const [request] = (await app.pending(conversation)).credentials;
      await app.consent(conversation, request!, await app.consentInBrowser(conversation, request!));
      const stored = (await app.credentialService.get({ appName: APP_NAME, userId, name: `mcp:${mcp}` })) as { oauth2: { accessToken: string } };
      return stored.oauth2.accessToken;
    };
    const [annToken, bobToken] = [await tokenOf('ann'), await tokenOf('bob')];
    const opened = await send({ authorization: `Bearer ${annToken}` });
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const other = await send({ authorization: `Bearer ${bobToken}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }, list);
    expect(other.status).toBe(404);
    const tooBig = await send({ authorization: `Bearer ${annToken}` }, { text: 'x'.repeat(2_000_000) });
    expect(tooBig.status).toBe(413);

    // A link to anything but the demo's provider is never followed for the user.
    const forged = { call: { name: 'adk_request_credential', id: 'x' }, originalCall: { name: 'authorize_calendar' }, author: 'assistant', authUri: 'http://example.test/auth?x=1', redirectUri: app.calendar.redirectUri, authConfig: { authScheme: { type: 'http', scheme: 'bearer' } } } as const;
    await expect(app.consentInBrowser({ userId: 'ann', sessionId: 's-ann' }, forged)).rejects.toThrow(/not on the demo's provider/);
  });

  it('close() stops the provider and the MCP server', async () => {
    const { app } = await openApp();
    const { issuer } = app.calendar.provider;
    const mcp = app.calendar.url;
    expect((await fetch(`${issuer}/.well-known/openid-configuration`)).status).toBe(200);
    await opened.pop()!.close();
    await expect(fetch(`${issuer}/.well-known/openid-configuration`)).rejects.toThrow();
    await expect(fetch(mcp, { method: 'POST' })).rejects.toThrow();
  });
});
