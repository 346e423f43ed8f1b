// Issue #23/#25 follow-up: a call resumed after a pause (an approval, a consent, a paused call's
// answer) that pauses AGAIN makes the same pause a first call would (HC-4, AU-3, FL-15): the
// request or marker is emitted, the turn ends without calling the model, and the next answer
// resumes the call again — never "interrupted", whether or not the tool is idempotent.
import { describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  LlmAgent,
  REQUEST_CONFIRMATION_FUNCTION,
  REQUEST_CREDENTIAL_FUNCTION,
  createUserContent,
  credentialKeyOf,
  getFunctionCalls,
  getFunctionResponses,
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

const config: AuthConfig = {
  authScheme: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://idp.test/auth', tokenUrl: 'https://idp.test/token', scopes: {} } } },
  rawAuthCredential: { authType: 'oauth2', oauth2: { clientId: 'app', redirectUri: 'https://app.test/cb' } },
};

/** Consents with a fresh state each, a code that exchanges into a token; no network. */
class Manager implements CredentialManager {
  readonly store = new Map<string, AuthCredential>();
  private n = 0;
  async getCredential(c: AuthConfig, scope: CredentialScope) {
    return this.store.get(`${scope.userId}/${await credentialKeyOf(c)}`);
  }
  async createRequest(c: AuthConfig) {
    const state = `state-${++this.n}`;
    return { ...c, exchangedAuthCredential: { authType: 'oauth2' as const, oauth2: { state, redirectUri: 'https://app.test/cb', authUri: `https://idp.test/auth?state=${state}` } } };
  }
  async completeRequest(request: AuthConfig, reply: CredentialReply, scope: CredentialScope) {
    const url = new URL(reply.authResponseUri);
    if (url.searchParams.get('state') !== request.exchangedAuthCredential?.oauth2?.state) throw new Error('state mismatch');
    this.store.set(`${scope.userId}/${request.credentialKey}`, { authType: 'oauth2', oauth2: { accessToken: `token-${url.searchParams.get('code')}` } });
  }
}

async function collect(gen: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of gen) events.push(event);
  return events;
}

const requestOf = (events: readonly Event[], name: string) => events.flatMap(getFunctionCalls).filter((call) => call.name === name);
const answersTo = (events: readonly Event[], id: string) => events.flatMap(getFunctionResponses).filter((r) => r.id === id && r.name !== REQUEST_CONFIRMATION_FUNCTION);
const approve = (id: string, confirmed = true): Content => ({ role: 'user', parts: [{ functionResponse: { id, name: REQUEST_CONFIRMATION_FUNCTION, response: { confirmed } } }] });
const consent = (id: string, state: string): Content => ({
  role: 'user',
  parts: [
    {
      functionResponse: {
        id,
        name: REQUEST_CREDENTIAL_FUNCTION,
        response: { ...config, exchangedAuthCredential: { authType: 'oauth2', oauth2: { authResponseUri: `https://app.test/cb?code=c1&state=${state}` } } },
      },
    },
  ],
});

async function setup(tool: ReturnType<typeof rawTool>, opts: { credentials?: boolean } = {}) {
  const model = new ScriptedModel([functionCallResponse([{ name: tool.name, args: { what: 'x' }, id: 'call-1' }]), textResponse('Done.'), textResponse('spare')]);
  const agent = new LlmAgent({ name: 'assistant', model, tools: [tool] });
  const runner = new InMemoryRunner({ agent, appName: 'app', credentials: opts.credentials ? new Manager() : undefined, confirmationSecret: 'k' });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const send = (message: Content) => collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: message }));
  return { model, send, runner };
}

describe('a resumed call that pauses again is paused anew', () => {
  it('HC-4 after AU-5: a call that asks for approval once its consent is given gets an approval request, and runs once approved', async () => {
    let runs = 0;
    const tool = rawTool('delete_repo', async (_args, ctx: ToolContext) => {
      if (!(await ctx.getCredential(config))) {
        ctx.requestCredential(config);
        return { status: 'Pending User Authorization.' };
      }
      if (!ctx.toolConfirmation) {
        ctx.requestConfirmation({ hint: 'Delete the repository?' });
        return { error: 'This tool call requires confirmation, please approve or reject.' };
      }
      if (!ctx.toolConfirmation.confirmed) return { error: 'rejected' };
      runs++;
      return { deleted: true };
    });
    const { model, send } = await setup(tool, { credentials: true });
    const first = await send(createUserContent('delete it'));
    const credential = requestOf(first, REQUEST_CREDENTIAL_FUNCTION)[0]!;
    expect(credential).toBeDefined();

    const second = await send(consent(credential.id!, 'state-1'));
    const approval = requestOf(second, REQUEST_CONFIRMATION_FUNCTION);
    expect(approval).toHaveLength(1);
    expect(approval[0]!.args).toMatchObject({ originalFunctionCall: { id: 'call-1', name: 'delete_repo' }, toolConfirmation: { hint: 'Delete the repository?' } });
    expect(second.at(-1)!.longRunningToolIds).toEqual([approval[0]!.id]);
    expect(model.requests).toHaveLength(1); // the model is not called with the call pending

    const third = await send(approve(approval[0]!.id!));
    expect(answersTo(third, 'call-1').map((r) => r.response)).toEqual([{ deleted: true }]);
    expect(runs).toBe(1);
    expect(third.at(-1)!.content!.parts![0]!.text).toBe('Done.');
    expect(model.requests).toHaveLength(2);
  });

  it('FL-15: a resumable call that answers undefined again on resume ends the turn, and the next answer resumes it (not interrupted, not idempotent)', async () => {
    const answers: Record<string, unknown>[] = [];
    const tool = {
      ...rawTool('ask_user', () => undefined),
      resume: async (_ctx: ToolContext, answer: Record<string, unknown>) => {
        answers.push(answer);
        return answer.final === true ? { result: answer.value } : undefined;
      },
    };
    const { model, send } = await setup(tool);
    const first = await send(createUserContent('go'));
    expect(first.at(-1)!.longRunningToolIds).toEqual(['call-1']);
    const answer = (response: Record<string, unknown>): Content => ({ role: 'user', parts: [{ functionResponse: { id: 'call-1', name: 'ask_user', response } }] });

    const second = await send(answer({ value: 'first' }));
    expect(second.at(-1)!.longRunningToolIds).toEqual(['call-1']);
    expect(answersTo(second, 'call-1')).toEqual([]);
    expect(model.requests).toHaveLength(1);

    const third = await send(answer({ value: 'second', final: true }));
    expect(answersTo(third, 'call-1').map((r) => r.response)).toEqual([{ result: 'second' }]);
    expect(JSON.stringify(third)).not.toContain('interrupted');
    expect(answers).toEqual([{ value: 'first' }, { value: 'second', final: true }]);
    expect(model.requests).toHaveLength(2);
  });

  it('at most once still: a resume cut short after the call paused again reads as interrupted on the next answer', async () => {
    let resumes = 0;
    const tool = {
      ...rawTool('ask_user', () => undefined),
      resume: async (ctx: ToolContext) => {
        resumes++;
        if (resumes === 1) return undefined; // paused again
        // The second resume never ends by itself: the run is cancelled while it runs (a crash).
        ctx.reportProgress({ message: 'working' });
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        return { never: true };
      },
    };
    const { model, send, runner } = await setup(tool);
    await send(createUserContent('go'));
    const answer: Content = { role: 'user', parts: [{ functionResponse: { id: 'call-1', name: 'ask_user', response: { value: 1 } } }] };
    await send(answer);
    for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: answer }))
      if (event.toolProgress?.functionCallId === 'call-1') break; // stops reading while it runs: the run is cancelled
    const after = await send(answer);
    const response = answersTo(after, 'call-1')[0]!.response as { error: string };
    expect(response.error).toContain('was interrupted');
    expect(resumes).toBe(2);
    expect(model.requests).toHaveLength(2);
  });

  it('HC-8: an approved call that asks for approval again gets a new request; the spent approval sent again is refused, the new one runs it', async () => {
    const hints: (string | undefined)[] = [];
    let step = 0;
    const tool = rawTool('transfer', (_args, ctx: ToolContext) => {
      hints.push(ctx.toolConfirmation?.hint);
      if (!ctx.toolConfirmation || step === 0) {
        if (ctx.toolConfirmation) step = 1;
        ctx.requestConfirmation({ hint: ctx.toolConfirmation ? 'Really, 1000 EUR?' : 'Send 1000 EUR?' });
        return { error: 'This tool call requires confirmation, please approve or reject.' };
      }
      return { sent: true };
    });
    const { model, send } = await setup(tool);
    const first = await send(createUserContent('pay'));
    const r1 = requestOf(first, REQUEST_CONFIRMATION_FUNCTION)[0]!;
    const second = await send(approve(r1.id!));
    const r2 = requestOf(second, REQUEST_CONFIRMATION_FUNCTION);
    expect(r2.map((call) => (call.args!.toolConfirmation as { hint: string }).hint)).toEqual(['Really, 1000 EUR?']);
    expect(model.requests).toHaveLength(1);

    const replayed = await send(approve(r1.id!));
    expect(replayed.map((e) => e.errorCode).filter(Boolean)).toEqual(['CONFIRMATION_ALREADY_USED']);
    expect(answersTo(replayed, 'call-1')).toEqual([]);

    const third = await send(approve(r2[0]!.id!));
    expect(answersTo(third, 'call-1').map((r) => r.response)).toEqual([{ sent: true }]);
    expect(model.requests).toHaveLength(2);
  });

  it('AU-3 after HC-8: an approved call that then asks for a credential pauses, and the consent resumes it', async () => {
    const tool = rawTool('read_mail', async (_args, ctx: ToolContext) => {
      if (!ctx.toolConfirmation && !ctx.resumeState) {
        ctx.requestConfirmation({ hint: 'Read your mail?' });
        return { error: 'This tool call requires confirmation, please approve or reject.' };
      }
      const credential = await ctx.getCredential(config);
      if (!credential) {
        ctx.setResumeState({ approved: true });
        ctx.requestCredential(config);
        return { status: 'Pending User Authorization.' };
      }
      return { mails: 3, token: credential.oauth2?.accessToken };
    });
    const { model, send } = await setup(tool, { credentials: true });
    const first = await send(createUserContent('mail?'));
    const second = await send(approve(requestOf(first, REQUEST_CONFIRMATION_FUNCTION)[0]!.id!));
    const credential = requestOf(second, REQUEST_CREDENTIAL_FUNCTION)[0]!;
    expect(credential.args).toMatchObject({ functionCallId: 'call-1' });
    expect(model.requests).toHaveLength(1);
    const third = await send(consent(credential.id!, 'state-1'));
    expect(answersTo(third, 'call-1').at(-1)!.response).toEqual({ mails: 3, token: 'token-c1' });
    expect(JSON.stringify(third)).not.toContain('interrupted');
    expect(model.requests).toHaveLength(2);
  });
});
