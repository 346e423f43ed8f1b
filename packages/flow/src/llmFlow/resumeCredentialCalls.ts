import type { ToolCallbacks } from './callTool.js';
import type { Content, FunctionCall } from '../content/content.js';
import { createEvent, getFunctionResponses, type Event } from '../content/event.js';
import { errorMessage } from '../errors.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import type { Tool } from '../tools/tool.js';
import { firstAskIndex, isCallAnswered } from '../confirmation/confirmationRequests.js';
import { REQUEST_CREDENTIAL_FUNCTION, type AuthConfig } from '../auth/authTypes.js';
import type { CredentialReply } from '../auth/credentialManager.js';
import { checkCredentialDigest, scanCredentialRequests } from '../auth/credentialRequests.js';
import { interruptedMessage, resumeStateOf, startedBetween } from './pausedCalls.js';
import { runResumedCalls } from './runResumedCalls.js';

/** Longest response URI a reply may carry (providers keep them far shorter). */
const MAX_RESPONSE_URI = 8192;

interface Reply {
  requestId: string;
  /** Undefined when the client replied without one: the call runs again and looks the credential up. */
  reply?: CredentialReply;
}

/**
 * The credential resume processor (AU-5): when the latest user event answers credential requests,
 * the credential manager completes each consent (checks the state, exchanges the code once, stores
 * the credential) and the paused call runs again, now finding it. Bound like confirmations (AU-8):
 * - only requests the flow created count (`scanCredentialRequests`, the digest keyed with the
 *   runner's `confirmationSecret`): a forged or edited request ends the invocation with
 *   `CREDENTIAL_REFUSED`, and nothing runs or is exchanged;
 * - the scheme, credential key, endpoints and state come from the stored request; the reply
 *   contributes only `authResponseUri` (and a `redirectUri`, which must be the request's);
 * - a consent is used once: a reply to a request whose call was answered is refused
 *   (`CREDENTIAL_ALREADY_USED`); a marker is saved before the call runs, as for approvals;
 * - a failed exchange (a denied consent, a state mismatch, a spent code, the provider down)
 *   answers the call with an error the model sees, with no code, token or URI in it;
 * - a call that pauses again (asks for an approval, another credential, answers `undefined`) is
 *   paused anew, as on its first run (`runResumedCalls`). Returns whether a call paused.
 */
export async function* resumeCredentialCalls(
  context: InvocationContext,
  resolveTools: () => Promise<readonly Tool[]>,
  callbacks: ToolCallbacks,
  agent: LlmAgent,
): AsyncGenerator<Event, boolean, undefined> {
  const events = context.session.events;
  const replyIndex = latestReplyIndex(events, context.invocationId);
  if (replyIndex < 0) return false;
  const replyEvent = events[replyIndex]!;
  const refuse = (code: string, message: string) => {
    context.endInvocation = true;
    return createEvent({ invocationId: context.invocationId, author: agent.name, branch: context.branch, errorCode: code, errorMessage: message });
  };
  if (replyEvent.author !== 'user') {
    yield refuse('CREDENTIAL_REFUSED', `Credential reply refused: it was authored by "${replyEvent.author}", and only the user may answer a credential request.`);
    return false;
  }
  // The saved reply has no response URI (it holds the code); this run's own message has it.
  const replies = parseReplies(replyEvent.invocationId === context.invocationId ? (context.credentialReplies ?? replyEvent.content) : replyEvent.content);
  if (replies.length === 0) return false;
  const scan = scanCredentialRequests(events.slice(0, replyIndex));
  const calls: FunctionCall[] = [];
  const resumeStates: Record<string, unknown> = {};
  const refusals = new Map<string, string>();
  const completions: { call: FunctionCall; request: AuthConfig; reply: CredentialReply }[] = [];
  const started: FunctionCall[] = [];

  for (const { requestId, reply } of replies) {
    const invalid = scan.refused.get(requestId);
    if (invalid) {
      if (invalid.author !== agent.name) continue;
      yield refuse('CREDENTIAL_REFUSED', `Credential reply "${requestId}" refused: ${invalid.problem}. Nothing was run.`);
      return false;
    }
    const request = scan.valid.get(requestId);
    if (!request) {
      // A reply to no request of this session (another session's, or made up) is refused loudly.
      yield refuse('CREDENTIAL_REFUSED', `Credential reply "${requestId}" refused: this session has no credential request with that id. Nothing was run.`);
      return false;
    }
    if (request.author !== agent.name) continue;
    const call = request.originalCall;
    const callId = call.id!;
    // Resumed already by an earlier step of this invocation (answered, or asking again): leave it.
    if (isCallAnswered(events, callId, replyIndex + 1) || startedBetween(events, callId, replyIndex + 1, events.length) || calls.some((c) => c.id === callId))
      continue;
    if (isCallAnswered(events.slice(0, replyIndex), callId, firstAskIndex(events, callId) + 1) || repliedBefore(events, requestId, replyIndex)) {
      yield refuse(
        'CREDENTIAL_ALREADY_USED',
        `Credential reply "${requestId}" refused: the request for call "${callId}" of tool "${call.name}" was already answered, and a consent is used once.`,
      );
      return false;
    }
    const digestProblem = await checkCredentialDigest(request, context.session.id, context.confirmationSecret);
    if (digestProblem) {
      yield refuse('CREDENTIAL_REFUSED', `Credential reply "${requestId}" refused: ${digestProblem}. Nothing was run.`);
      return false;
    }
    if (startedBetween(events, callId, request.index + 1, replyIndex)) started.push(call);
    else if (reply) completions.push({ call, request: request.authConfig, reply });
    resumeStates[callId] = resumeStateOf(events, callId, replyIndex);
    calls.push(call);
  }
  if (calls.length === 0) return false;

  // The consents complete before the tools are listed: a toolset that lists per user (an MCP server
  // behind OAuth) lists with the new credential, so the paused call's tool is there.
  const scope = { appName: context.appName, userId: context.userId, sessionId: context.session.id };
  for (const { call, request, reply } of completions) {
    try {
      if (!context.credentials) throw new Error('the runner has no credential manager');
      await context.credentials.completeRequest(request, reply, scope, { signal: context.signal });
    } catch (error) {
      if (context.aborted) return false;
      refusals.set(call.id!, `Authorization for tool "${call.name}" failed: ${errorMessage(error)}. The tool did not run; ask the user whether to try again.`);
    }
  }
  const toolsByName = new Map((await resolveTools()).map((tool) => [tool.name, tool]));
  // A resume that started before (a crash while the call ran) runs again only for an idempotent tool.
  for (const call of started) if (!toolsByName.get(call.name)?.idempotent) refusals.set(call.id!, interruptedMessage(call));
  return yield* runResumedCalls(context, agent, { calls, tools: toolsByName, callbacks, resumeStates, refusals });
}

/** Whether a user event before `before` already replied to the request. */
function repliedBefore(events: readonly Event[], requestId: string, before: number): boolean {
  for (let i = 0; i < before; i++)
    if (events[i]!.author === 'user' && getFunctionResponses(events[i]!).some((r) => r.id === requestId && r.name === REQUEST_CREDENTIAL_FUNCTION)) return true;
  return false;
}

/** Index of the newest event carrying credential replies, if it is the newest user-side event. */
function latestReplyIndex(events: readonly Event[], invocationId: string): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.author !== 'user' && event.invocationId === invocationId) continue;
    if (getFunctionResponses(event).some((r) => r.name === REQUEST_CREDENTIAL_FUNCTION)) return i;
    if (event.author === 'user') return -1;
  }
  return -1;
}

/**
 * The replies in a user message (AU-4): the response is the `AuthConfig` (as ADK's clients send it)
 * or `{authConfig}`; only `exchangedAuthCredential.oauth2.authResponseUri` and `.redirectUri` are
 * read. Everything else the client sent (a scheme, a token endpoint, a token) is ignored.
 */
function parseReplies(content: Content | undefined): Reply[] {
  const replies: Reply[] = [];
  for (const response of (content?.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse] : []))) {
    if (response.name !== REQUEST_CREDENTIAL_FUNCTION || !response.id) continue;
    const value = (response.response ?? {}) as Record<string, unknown>;
    const config = (isRecord(value.authConfig) ? value.authConfig : value) as Partial<AuthConfig>;
    const oauth2 = isRecord(config.exchangedAuthCredential) && isRecord(config.exchangedAuthCredential.oauth2) ? config.exchangedAuthCredential.oauth2 : {};
    const uri = oauth2.authResponseUri;
    if (typeof uri !== 'string' || uri === '') {
      replies.push({ requestId: response.id });
      continue;
    }
    const reply: { authResponseUri: string; redirectUri?: string } = { authResponseUri: uri.slice(0, MAX_RESPONSE_URI + 1) };
    if (typeof oauth2.redirectUri === 'string') reply.redirectUri = oauth2.redirectUri;
    replies.push({ requestId: response.id, reply });
  }
  return replies;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
