import type { BaseAgent } from './baseAgent.js';
import type { Content } from '../content/content.js';
import { errorMessage, ArtifactError } from '../errors.js';
import { getFunctionResponses, type Event } from '../content/event.js';
import { newId } from '../content/ids.js';
import { copyOwn } from '../content/ownProperty.js';
import type { ToolContext } from '../context/toolContext.js';
import { verifiedPendingConfirmationRequests } from '../confirmation/confirmationRequests.js';
import { confirmationSecretOf } from '../confirmation/confirmationSecret.js';
import { REQUEST_CONFIRMATION_FUNCTION } from '../llmFlow/buildContents.js';
import { Runner } from '../runner/runner.js';
import { REQUEST_CREDENTIAL_FUNCTION, type AuthConfig } from '../auth/authTypes.js';
import type { CredentialManager } from '../auth/credentialManager.js';
import { pendingCredentialRequestsIn } from '../auth/credentialRequests.js';
import { redactAuthConfig } from '../auth/redactAuthConfig.js';
import { credentialManagerOf } from '../context/flowContext.js';
import type { ArtifactService } from '../services/artifactService.js';
import type { MemoryService } from '../services/memoryService.js';
import { InMemorySessionService } from '../sessions/inMemorySessionService.js';
import { STATE_PREFIX } from '../sessions/state.js';
import { STEP_PROBLEM_CODES } from '../llmFlow/stepProblem.js';

/** What a paused sub-agent call saves in its call's resume slot (`ctx.setResumeState`). */
interface SubAgentPause {
  readonly format: 'adkit.subAgent/1';
  readonly agent: string;
  readonly sessionId: string;
  readonly initialState: Record<string, unknown>;
  readonly events: Event[];
  readonly waiting:
    | { kind: 'confirmation'; requestId: string }
    | { kind: 'answer'; callId: string; toolName: string }
    | { kind: 'credential'; requestId: string };
}

/** How a sub-agent call ended. */
export type SubAgentOutcome =
  /** It answered: the last content's text (thoughts left out), and its session's state. */
  | { kind: 'answer'; text: string; state: Record<string, unknown>; initialState: Record<string, unknown> }
  /** It failed (a throw or an error event); the message is for the parent model. */
  | { kind: 'error'; message: string }
  /**
   * It waits for the user: a tool inside asked for confirmation (this call asked the parent's
   * user with the same hint and payload) or a long-running tool inside waits for its answer (the
   * parent call is paused; answer it like any long-running call). The child's state is saved in
   * the call's resume slot, so the answer resumes it exactly where it stopped, in any process.
   */
  | { kind: 'paused'; waitingFor: 'confirmation' | 'answer' | 'credential'; toolName: string };

/** What a call of a sub-agent starts with: the user message, or nothing on a resume. */
export interface SubAgentCallInput {
  /** The message for a first call. */
  message?: Content;
  /** The client's answer to a paused long-running call inside (from `resume`). */
  answer?: Record<string, unknown>;
}

/**
 * Runs an agent inside a tool call, isolated (AT-4): its own in-memory session, seeded with a
 * copy of the caller's state without `_adk…` and `temp:` keys, its own runner; artifacts and
 * memory search go to the caller's (saves are recorded on the caller's call). Its events reach
 * the caller's client as progress events of the call. Nothing of its history reaches the caller's
 * model. When a tool inside pauses (a confirmation, a long-running answer), the child's session is
 * saved in the call's resume slot and the call pauses too; the caller's resume continues it where
 * it stopped, so an inner tool runs once — across a process restart with a durable session store.
 * The child's runner has the parent's `confirmationSecret`, so every confirmation request inside,
 * at any depth, is keyed with it and checked on resume (the child's session rides in the parent's
 * saved events, where someone with store write access could edit it).
 * The building block of `@adkit/agent-tool` and of single-turn sub-agents.
 */
export async function callSubAgent(agent: BaseAgent, ctx: ToolContext, input: SubAgentCallInput): Promise<SubAgentOutcome> {
  const saved = pauseOf(ctx.resumeState, agent.name);
  const sessionService = new InMemorySessionService();
  const appName = agent.name;
  const sessionId = saved?.sessionId ?? newId();
  const initialState = saved?.initialState ?? inheritedState(ctx.state.toObject());
  const session = await sessionService.createSession({ appName, userId: ctx.userId, sessionId, state: initialState });
  for (const event of saved?.events ?? []) await sessionService.appendEvent(session, event);

  let message: Content | undefined = input.message;
  if (saved?.waiting.kind === 'confirmation') {
    if (!ctx.toolConfirmation) return { kind: 'error', message: `Sub-agent "${agent.name}" was resumed without the confirmation it waits for.` };
    const response: Record<string, unknown> = { confirmed: ctx.toolConfirmation.confirmed };
    if (ctx.toolConfirmation.payload !== undefined) response.payload = ctx.toolConfirmation.payload;
    message = { role: 'user', parts: [{ functionResponse: { id: saved.waiting.requestId, name: REQUEST_CONFIRMATION_FUNCTION, response } }] };
  } else if (saved?.waiting.kind === 'credential') {
    // The parent completed the consent and stored the credential: the child's paused call runs
    // again and finds it (a reply without a response URI exchanges nothing).
    message = { role: 'user', parts: [{ functionResponse: { id: saved.waiting.requestId, name: REQUEST_CREDENTIAL_FUNCTION, response: {} } }] };
  } else if (saved?.waiting.kind === 'answer') {
    if (!input.answer) return { kind: 'error', message: `Sub-agent "${agent.name}" was resumed without the answer its tool "${saved.waiting.toolName}" waits for.` };
    message = { role: 'user', parts: [{ functionResponse: { id: saved.waiting.callId, name: saved.waiting.toolName, response: input.answer } }] };
  }

  const manager = credentialManagerOf(ctx);
  const asked = new Map<string, AuthConfig>();
  // The parent's secret keys and checks every confirmation request inside, at every depth: the
  // child's session rides in the parent's saved events, where a store writer could edit it.
  const confirmationSecret = confirmationSecretOf(ctx);
  const runner = new Runner({
    appName,
    agent,
    sessionService,
    confirmationSecret,
    credentials: manager && childCredentials(ctx, manager, asked),
    artifactService: forwardedArtifacts(ctx),
    memoryService: forwardedMemory(ctx),
    logger: ctx.logger,
  });
  const produced: Event[] = [];
  try {
    for await (const event of runner.runAsync({ userId: ctx.userId, sessionId, newMessage: message, signal: ctx.signal, context: ctx.context })) {
      ctx.reportProgress({ event });
      if (!event.partial) produced.push(event);
    }
  } catch (error) {
    return { kind: 'error', message: `error during execution of sub-agent ${agent.name}: ${errorMessage(error)}` };
  }
  if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('cancelled');

  // A part the child left out (a toolset that failed to list, a refused tool) is not a failure of the child.
  const failed = produced.find((event) => (event.errorCode || event.errorMessage) && !STEP_PROBLEM_CODES.has(event.errorCode ?? ''));
  if (failed)
    return {
      kind: 'error',
      message: `error from sub-agent "${agent.name}" (code: "${failed.errorCode ?? ''}", message: "${failed.errorMessage ?? ''}")`,
    };

  const stored = (await sessionService.getSession({ appName, userId: ctx.userId, sessionId }))!;
  const pause = (waiting: SubAgentPause['waiting']) =>
    ctx.setResumeState({ format: 'adkit.subAgent/1', agent: agent.name, sessionId, initialState, events: stored.events, waiting } satisfies SubAgentPause);
  const [pending] = await verifiedPendingConfirmationRequests(stored, confirmationSecret);
  if (pending) {
    pause({ kind: 'confirmation', requestId: pending.requestCall.id! });
    ctx.requestConfirmation({
      hint: pending.confirmation.hint ?? `Approve ${pending.originalCall.name} for ${agent.name}?`,
      payload: pending.confirmation.payload,
    });
    return { kind: 'paused', waitingFor: 'confirmation', toolName: pending.originalCall.name };
  }
  const [credential] = pendingCredentialRequestsIn(stored.events);
  if (credential) {
    // Asked again from the parent's call (adk-python #7182): the parent's user consents, the
    // parent's flow exchanges the code, and the answer resumes the child.
    pause({ kind: 'credential', requestId: credential.requestCall.id! });
    ctx.requestCredential(asked.get(credential.authConfig.credentialKey ?? '') ?? credential.authConfig);
    return { kind: 'paused', waitingFor: 'credential', toolName: credential.originalCall.name };
  }
  const waiting = unansweredLongRunning(produced);
  if (waiting) {
    pause({ kind: 'answer', ...waiting });
    return { kind: 'paused', waitingFor: 'answer', toolName: waiting.toolName };
  }

  const last = [...produced].reverse().find((event) => event.content && event.author !== 'user');
  const text = (last?.content?.parts ?? [])
    .filter((part) => typeof part.text === 'string' && part.text !== '' && !part.thought)
    .map((part) => part.text)
    .join('\n');
  return { kind: 'answer', text, state: stored.state, initialState };
}

/** The caller's state as the child starts with it: everything but `_adk…` and `temp:` keys (AT-4). */
function inheritedState(state: Record<string, unknown>): Record<string, unknown> {
  const copy = copyOwn(state);
  for (const key of Object.keys(copy)) if (key.startsWith('_adk') || key.startsWith(STATE_PREFIX.temp)) delete copy[key];
  return copy;
}

function pauseOf(value: unknown, agentName: string): SubAgentPause | undefined {
  const pause = value as Partial<SubAgentPause> | undefined;
  if (!pause || pause.format !== 'adkit.subAgent/1' || pause.agent !== agentName || !Array.isArray(pause.events)) return undefined;
  return pause as SubAgentPause;
}

/** The first long-running call of this run that nothing answered (confirmation requests aside). */
function unansweredLongRunning(events: readonly Event[]): { callId: string; toolName: string } | undefined {
  const answered = new Set(events.flatMap(getFunctionResponses).map((response) => response.id));
  for (const event of events)
    for (const id of event.longRunningToolIds ?? []) {
      const call = event.content?.parts?.find((part) => part.functionCall?.id === id)?.functionCall;
      if (call && call.name !== REQUEST_CONFIRMATION_FUNCTION && !answered.has(id)) return { callId: id, toolName: call.name };
      // A resumable tool marks the responses event, which holds no call: find it in an earlier event.
      if (!call && !answered.has(id)) {
        const made = events.flatMap((e) => e.content?.parts ?? []).find((part) => part.functionCall?.id === id)?.functionCall;
        if (made) return { callId: id, toolName: made.name };
      }
    }
  return undefined;
}

/**
 * The parent's credential manager as the child's runner sees it: credentials are the parent's
 * user's (the child's session has another app name); a consent request is only noted (the parent
 * asks with the full config, which `asked` keeps by credential key), never sent from inside.
 */
function childCredentials(ctx: ToolContext, manager: CredentialManager, asked: Map<string, AuthConfig>): CredentialManager {
  const scope = { appName: ctx.appName, userId: ctx.userId, sessionId: ctx.sessionId };
  return {
    getCredential: (config, _scope, options) => manager.getCredential(config, scope, options),
    createRequest: async (config) => {
      if (config.credentialKey) asked.set(config.credentialKey, config);
      return redactAuthConfig(config);
    },
    completeRequest: () => Promise.reject(new Error('a sub-agent cannot complete a consent; its parent does')),
  };
}

/** The child's artifacts are the caller's: saves are recorded on the caller's call (AT-4). */
function forwardedArtifacts(ctx: ToolContext): ArtifactService {
  const unsupported = (what: string) => Promise.reject(new ArtifactError(`${what} is not available inside a sub-agent; use it from the parent agent.`));
  return {
    saveArtifact: ({ filename, artifact }) => ctx.saveArtifact(filename, artifact),
    loadArtifact: ({ filename, version }) => ctx.loadArtifact(filename, version),
    listArtifactKeys: () => ctx.listArtifacts(),
    deleteArtifact: () => unsupported('deleteArtifact'),
    listVersions: () => unsupported('listVersions'),
  };
}

/** Memory search goes to the caller's memory; the child's session is never added to it. */
function forwardedMemory(ctx: ToolContext): MemoryService {
  return {
    addSessionToMemory: async () => {},
    searchMemory: ({ query }) => ctx.searchMemory(query),
  };
}

/** The user message of a `{request}` call of an agent (AT-3): the text, or a non-string as JSON. */
export function requestText(agentName: string, args: Record<string, unknown>): string {
  if (args.request === undefined) throw new Error(`missing required argument 'request' for agent ${agentName}`);
  return typeof args.request === 'string' ? args.request : JSON.stringify(args.request);
}

/**
 * The response of a sub-agent call that did not answer: a failure throws (the parent model gets
 * it as an error); a wait for confirmation says so; a wait for a long-running answer responds
 * nothing (the parent call pauses).
 */
export function unansweredResponse(
  agentName: string,
  outcome: Exclude<SubAgentOutcome, { kind: 'answer' }>,
): Record<string, unknown> | undefined {
  if (outcome.kind === 'error') throw new Error(outcome.message);
  if (outcome.waitingFor === 'confirmation') return { status: `Agent "${agentName}" is waiting for the user to approve "${outcome.toolName}".` };
  if (outcome.waitingFor === 'credential') return { status: `Agent "${agentName}" is waiting for the user to authorize "${outcome.toolName}".` };
  return undefined;
}
