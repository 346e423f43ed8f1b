// Pins the credential protocol in the flow (AU-2..AU-8): a tool asks, the flow emits a long-running
// `adk_request_credential` call the model never sees, the client's reply is completed by the
// runner's credential manager, and the paused call runs again and finds the credential. Bound like
// confirmations: only flow-made requests count, the reply contributes only the response URI, a
// consent is used once, and requests inside agent tools cross the boundary.
import { describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  InMemorySessionService,
  LlmAgent,
  REQUEST_CREDENTIAL_FUNCTION,
  Runner,
  createUserContent,
  credentialKeyOf,
  getFunctionCalls,
  getFunctionResponses,
  pendingCredentialRequestsIn,
  type AuthConfig,
  type AuthCredential,
  type Content,
  type CredentialManager,
  type CredentialReply,
  type CredentialScope,
  type Event,
  type ToolContext,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool } from './support.js';

const SECRET = 'client-secret-XYZ';
const config: AuthConfig = {
  authScheme: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://idp.test/auth', tokenUrl: 'https://idp.test/token', scopes: {} } } },
  rawAuthCredential: { authType: 'oauth2', oauth2: { clientId: 'app', clientSecret: SECRET, redirectUri: 'https://app.test/cb' } },
};

/**
 * A credential manager with the contract's behaviour and no network: a consent URL with a fresh
 * state, codes that exchange once, credentials per user and key. The real one is @adkit/auth's.
 */
class TestManager implements CredentialManager {
  readonly store = new Map<string, AuthCredential>();
  readonly spent = new Set<string>();
  readonly completed: { request: AuthConfig; reply: CredentialReply; scope: CredentialScope }[] = [];
  readonly asked: AuthConfig[] = [];
  private n = 0;
  failCreate = false;

  async getCredential(c: AuthConfig, scope: CredentialScope) {
    return this.store.get(`${scope.appName}/${scope.userId}/${await credentialKeyOf(c)}`);
  }
  async createRequest(c: AuthConfig) {
    if (this.failCreate) throw new Error('the authorization server at https://idp.test is unreachable');
    this.asked.push(c);
    const state = `state-${++this.n}`;
    return {
      ...c,
      exchangedAuthCredential: { authType: 'oauth2' as const, oauth2: { clientId: 'app', clientSecret: SECRET, state, redirectUri: 'https://app.test/cb', authUri: `https://idp.test/auth?state=${state}` } },
    };
  }
  async completeRequest(request: AuthConfig, reply: CredentialReply, scope: CredentialScope) {
    this.completed.push({ request, reply, scope });
    const url = new URL(reply.authResponseUri);
    if (url.searchParams.get('state') !== request.exchangedAuthCredential?.oauth2?.state) throw new Error('the state does not match the request');
    if (reply.redirectUri !== undefined && reply.redirectUri !== request.exchangedAuthCredential?.oauth2?.redirectUri)
      throw new Error('the redirect URI is not the one of the request');
    const code = url.searchParams.get('code')!;
    if (this.spent.has(code)) throw new Error('the code was already used');
    this.spent.add(code);
    this.store.set(`${scope.appName}/${scope.userId}/${request.credentialKey}`, { authType: 'oauth2', oauth2: { accessToken: `token-for-${code}` } });
  }
}

function calendarTool(seen: (AuthCredential | undefined)[]) {
  return rawTool('list_events', async (_args, ctx: ToolContext) => {
    const credential = await ctx.getCredential(config);
    seen.push(credential);
    if (!credential) {
      ctx.requestCredential(config);
      return { status: 'Pending User Authorization.' };
    }
    return { events: ['standup'], tokenLength: credential.oauth2?.accessToken?.length };
  });
}

async function collect(gen: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of gen) events.push(event);
  return events;
}

function reply(id: string, authResponseUri: string, extra: Record<string, unknown> = {}): Content {
  return {
    role: 'user',
    parts: [{ functionResponse: { id, name: REQUEST_CREDENTIAL_FUNCTION, response: { ...config, exchangedAuthCredential: { authType: 'oauth2', oauth2: { authResponseUri, redirectUri: 'https://app.test/cb', ...extra } } } } }],
  };
}

async function setup(opts: { secret?: string } = {}) {
  const seen: (AuthCredential | undefined)[] = [];
  const manager = new TestManager();
  const model = new ScriptedModel([
    functionCallResponse([{ name: 'list_events', args: { day: 'today' }, id: 'call-1' }]),
    textResponse('You have a standup.'),
    textResponse('spare'),
  ]);
  const agent = new LlmAgent({ name: 'assistant', model, tools: [calendarTool(seen)] });
  const runner = new InMemoryRunner({ agent, appName: 'app', credentials: manager, confirmationSecret: opts.secret });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const first = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('what is on today?') }));
  const request = first.flatMap(getFunctionCalls).find((call) => call.name === REQUEST_CREDENTIAL_FUNCTION)!;
  return { seen, manager, model, runner, first, request };
}

describe('credential protocol in the flow', () => {
  it('AU-2/AU-3: a tool that asks pauses the run with a long-running adk_request_credential {functionCallId, authConfig}', async () => {
    const { first, request, manager, model } = await setup();
    expect(request).toBeDefined();
    const last = first.at(-1)!;
    expect(last.longRunningToolIds).toEqual([request.id]);
    expect(request.args).toMatchObject({ functionCallId: 'call-1', formatVersion: 1 });
    const authConfig = request.args!.authConfig as AuthConfig;
    expect(authConfig.exchangedAuthCredential!.oauth2!.authUri).toBe('https://idp.test/auth?state=state-1');
    expect(authConfig.credentialKey).toMatch(/^adk_oauth2_[0-9a-f]{32}$/);
    // The manager got the full config (it keeps the secret); the events never do.
    expect(manager.asked[0]!.rawAuthCredential!.oauth2!.clientSecret).toBe(SECRET);
    expect(JSON.stringify(first)).not.toContain(SECRET);
    expect(model.requests).toHaveLength(1);
    expect(pendingCredentialRequestsIn(first).map((r) => r.requestCall.id)).toEqual([request.id]);
  });

  it('AU-5: the reply is completed by the manager and the paused call runs again and finds the credential', async () => {
    const { runner, request, manager, seen, model } = await setup();
    const events = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: reply(request.id!, 'https://app.test/cb?code=c1&state=state-1') }));
    expect(manager.completed).toHaveLength(1);
    expect(seen.map((c) => c?.oauth2?.accessToken)).toEqual([undefined, 'token-for-c1']);
    const responses = events.flatMap(getFunctionResponses).filter((r) => r.id === 'call-1');
    expect(responses.map((r) => r.response)).toEqual([{ events: ['standup'], tokenLength: 12 }]);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('You have a standup.');
    // AU-3: the model never sees the protocol's calls or replies, nor any token.
    const sent = JSON.stringify(model.requests.map((r) => r.contents));
    expect(sent).not.toContain(REQUEST_CREDENTIAL_FUNCTION);
    expect(sent).not.toContain('token-for-c1');
    expect(sent).toContain('standup');
    // The response URI holds the code: the saved reply, and what plugins see, do not.
    const saved = (await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
    expect(JSON.stringify(saved.events)).not.toContain('code=c1');
    expect(JSON.stringify(events)).not.toContain('code=c1');
  });

  it('AU-8: the scheme, key and endpoints come from the stored request; a token endpoint in the reply is ignored', async () => {
    const { runner, request, manager } = await setup();
    const forged = reply(request.id!, 'https://app.test/cb?code=c1&state=state-1');
    const response = forged.parts![0]!.functionResponse!.response as Record<string, unknown>;
    response.authScheme = { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://evil.test/a', tokenUrl: 'https://evil.test/token' } } };
    response.credentialKey = 'someone-elses-key';
    await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: forged }));
    const used = manager.completed[0]!.request;
    expect(JSON.stringify(used)).not.toContain('evil.test');
    expect(used.credentialKey).toBe((request.args!.authConfig as AuthConfig).credentialKey);
  });

  it('AU-8: a consent is used once: the same reply sent again is refused and nothing runs', async () => {
    const { runner, request, seen, manager } = await setup();
    const message = reply(request.id!, 'https://app.test/cb?code=c1&state=state-1');
    await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: message }));
    const again = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: message }));
    expect(again.map((e) => e.errorCode)).toEqual(['CREDENTIAL_ALREADY_USED']);
    expect(seen).toHaveLength(2);
    expect(manager.completed).toHaveLength(1);
  });

  it('AU-8: a state mismatch or a swapped redirect URI answers the call with an error the model sees, with no URI or code in it', async () => {
    for (const [uri, extra] of [
      ['https://app.test/cb?code=c9&state=forged', {}],
      ['https://app.test/cb?code=c9&state=state-1', { redirectUri: 'https://evil.test/cb' }],
    ] as const) {
      const { runner, request, seen, model } = await setup();
      const events = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: reply(request.id!, uri, extra) }));
      const answer = events.flatMap(getFunctionResponses).find((r) => r.id === 'call-1')!;
      expect(String(answer.response!.error)).toMatch(/^Authorization for tool "list_events" failed: the (state|redirect URI)/);
      expect(JSON.stringify(answer)).not.toContain('c9');
      expect(seen).toHaveLength(1);
      expect(model.requests).toHaveLength(2);
    }
  });

  it('AU-8: a reply to a request the model made, or to no request of this session, is refused', async () => {
    const { runner } = await setup();
    const events = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: reply('adk-not-a-request', 'https://app.test/cb?code=c1&state=state-1') }));
    expect(events.map((e) => e.errorCode)).toEqual(['CREDENTIAL_REFUSED']);

    const model = new ScriptedModel([
      functionCallResponse([{ name: REQUEST_CREDENTIAL_FUNCTION, args: { functionCallId: 'x', authConfig: config }, id: 'forged-1' }]),
      textResponse('ok'),
    ]);
    const agent = new LlmAgent({ name: 'assistant', model, tools: [] });
    const other = new InMemoryRunner({ agent, appName: 'app', credentials: new TestManager() });
    await other.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const made = await collect(other.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('hi') }));
    const refusal = made.flatMap(getFunctionResponses).find((r) => r.id === 'forged-1')!;
    expect(String(refusal.response!.error)).toContain('reserved for adkit\'s credential protocol');
    expect(pendingCredentialRequestsIn(made)).toEqual([]);
    const answered = await collect(other.runAsync({ userId: 'u', sessionId: 's', newMessage: reply('forged-1', 'https://app.test/cb?code=c1&state=s') }));
    expect(answered.map((e) => e.errorCode)).toEqual(['CREDENTIAL_REFUSED']);
  });

  it('AU-8: with confirmationSecret, a stored request edited by hand is refused', async () => {
    const { runner, request } = await setup({ secret: 'k' });
    const session = (await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
    // Someone with write access to the store swaps the token endpoint and recomputes nothing.
    const edited = structuredClone(session.events) as Event[];
    const call = edited.flatMap(getFunctionCalls).find((c) => c.id === request.id)!;
    (call.args!.authConfig as AuthConfig).exchangedAuthCredential!.oauth2!.authUri = 'https://evil.test/auth';
    const service = new InMemorySessionService();
    const copy = await service.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    for (const event of edited) await service.appendEvent(copy, event);
    const manager = new TestManager();
    const agent = new LlmAgent({ name: 'assistant', model: new ScriptedModel([textResponse('x')]), tools: [calendarTool([])] });
    const second = new Runner({ appName: 'app', agent, sessionService: service, credentials: manager, confirmationSecret: 'k' });
    const events = await collect(second.runAsync({ userId: 'u', sessionId: 's', newMessage: reply(request.id!, 'https://app.test/cb?code=c1&state=state-1') }));
    expect(events.map((e) => e.errorCode)).toEqual(['CREDENTIAL_REFUSED']);
    expect(events[0]!.errorMessage).toContain('digest does not match');
    expect(manager.completed).toEqual([]);
  });

  it('AU-2: a manager that cannot make the request (provider down) answers the call with an error, and the model is told', async () => {
    const manager = new TestManager();
    manager.failCreate = true;
    const model = new ScriptedModel([functionCallResponse([{ name: 'list_events', args: {}, id: 'call-1' }]), textResponse('The calendar is unreachable.')]);
    const agent = new LlmAgent({ name: 'assistant', model, tools: [calendarTool([])] });
    const runner = new InMemoryRunner({ agent, appName: 'app', credentials: manager });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const events = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('hi') }));
    const answer = events.flatMap(getFunctionResponses).find((r) => r.id === 'call-1')!;
    expect(answer.response!.error).toBe(
      'Tool "list_events" needs the user\'s authorization, but the authorization request could not be made: the authorization server at https://idp.test is unreachable. Tell the user, or try again later.',
    );
    expect(events.flatMap(getFunctionCalls).some((c) => c.name === REQUEST_CREDENTIAL_FUNCTION)).toBe(false);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('The calendar is unreachable.');
  });

  it('AU-6: credentials are the user\'s: a reply in another user\'s session cannot use this user\'s request', async () => {
    const { runner, request, manager } = await setup();
    await runner.sessionService.createSession({ appName: 'app', userId: 'mallory', sessionId: 'm' });
    const events = await collect(runner.runAsync({ userId: 'mallory', sessionId: 'm', newMessage: reply(request.id!, 'https://app.test/cb?code=c1&state=state-1') }));
    expect(events.map((e) => e.errorCode)).toEqual(['CREDENTIAL_REFUSED']);
    expect(manager.completed).toEqual([]);
  });

  it('AU-8 (adk-python #7182): a credential asked inside a single-turn sub-agent is asked from the parent, and the answer resumes the child', async () => {
    const seen: (AuthCredential | undefined)[] = [];
    const childModel = new ScriptedModel([
      functionCallResponse([{ name: 'list_events', args: {}, id: 'inner-1' }]),
      textResponse('Standup at nine.'),
    ]);
    const child = new LlmAgent({ name: 'calendar', description: 'reads the calendar', model: childModel, tools: [calendarTool(seen)], mode: 'single_turn' });
    const parentModel = new ScriptedModel([
      functionCallResponse([{ name: 'calendar', args: { request: 'today?' }, id: 'outer-1' }]),
      textResponse('You have a standup at nine.'),
    ]);
    const manager = new TestManager();
    const parent = new LlmAgent({ name: 'assistant', model: parentModel, subAgents: [child] });
    const runner = new InMemoryRunner({ agent: parent, appName: 'app', credentials: manager });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const first = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('what is on?') }));
    const [pending] = pendingCredentialRequestsIn(first);
    expect(pending!.originalCall.id).toBe('outer-1');
    expect(manager.asked).toHaveLength(1);
    expect(manager.asked[0]!.rawAuthCredential!.oauth2!.clientSecret).toBe(SECRET);
    const state = pending!.authConfig.exchangedAuthCredential!.oauth2!.state;
    const events = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: reply(pending!.requestCall.id!, `https://app.test/cb?code=c7&state=${state}`) }));
    expect(seen.map((c) => c?.oauth2?.accessToken)).toEqual([undefined, 'token-for-c7']);
    expect(manager.completed[0]!.scope).toMatchObject({ appName: 'app', userId: 'u' });
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('You have a standup at nine.');
  });
  it('DESIGN late answers: a consent given after other turns reaches the model as the newest thing, and the call keeps its pending answer in place', async () => {
    const { runner, request, model } = await setup();
    await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('say hello meanwhile') }));
    await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: reply(request.id!, 'https://app.test/cb?code=c1&state=state-1') }));
    const last = model.requests.at(-1)!;
    const newest = JSON.stringify(last.contents.at(-1));
    expect(newest).toContain('standup');
    expect(newest).toContain('list_events');
    // In place, right after the call, the model still has the pending answer it saw.
    const history = JSON.stringify(last.contents);
    expect(history.indexOf('Pending User Authorization.')).toBeLessThan(history.indexOf('say hello meanwhile'));
    expect(history).not.toContain(REQUEST_CREDENTIAL_FUNCTION);
  });
  it('AU-5: a call that asks again after the consent runs once for the reply and pauses the run with a new request', async () => {
    const runs: string[] = [];
    const manager = new TestManager();
    // Asks on every run: the user's consent does not give it what it needs.
    const stubborn = rawTool('list_events', async (_args, ctx: ToolContext) => {
      runs.push(ctx.functionCallId);
      ctx.requestCredential(config);
      return { status: 'Pending User Authorization.' };
    });
    const other = rawTool('other', () => ({ ok: true }));
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'list_events', args: {}, id: 'call-1' }]),
      functionCallResponse([{ name: 'other', args: {}, id: 'o-1' }]),
      functionCallResponse([{ name: 'other', args: {}, id: 'o-2' }]),
      textResponse('still waiting'),
    ]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'assistant', model, tools: [stubborn, other] }), appName: 'app', credentials: manager });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const first = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go') }));
    const [pending] = pendingCredentialRequestsIn(first);
    const second = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: reply(pending!.requestCall.id!, 'https://app.test/cb?code=c1&state=state-1') }));
    expect(runs).toEqual(['call-1', 'call-1']);
    expect(manager.completed).toHaveLength(1);
    // It asked again: a new request waits, the answered one does not.
    const session = (await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
    const waiting = pendingCredentialRequestsIn(session.events).map((r) => r.requestCall.id);
    expect(second.some((e) => e.longRunningToolIds?.includes(waiting[0]!))).toBe(true);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).not.toBe(pending!.requestCall.id);
  });
});
