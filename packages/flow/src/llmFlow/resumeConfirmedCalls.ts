import { REQUEST_CONFIRMATION_FUNCTION } from './buildContents.js';
import type { ToolCallbacks } from './callTool.js';
import { canonicalJson, functionCallDigest } from '../content/canonicalJson.js';
import type { FunctionCall } from '../content/content.js';
import { createEvent, getFunctionCalls, getFunctionResponses, type Event } from '../content/event.js';
import type { ToolConfirmation } from '../content/eventActions.js';
import { executeFunctionCalls } from './executeFunctionCalls.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import type { Tool } from '../tools/tool.js';

interface Reply {
  confirmationId: string;
  confirmation: ToolConfirmation;
}

interface Request {
  /** Index of the confirmation-request event in the session. */
  index: number;
  original: FunctionCall;
  digest: unknown;
}

/**
 * The resume processor (HC-8): when the latest user event answers confirmation requests, re-runs
 * exactly the approved (or rejected) original calls with `toolConfirmation` set, and yields their
 * responses. Beyond ADK, a reply is honoured only if it binds to the exact saved call: the
 * original call must exist in this agent's events with the same tool name, arguments and id as
 * when confirmation was requested, and a confirmation is used at most once. Anything else ends the
 * invocation with an error event and runs nothing.
 */
export async function* resumeConfirmedCalls(
  context: InvocationContext,
  tools: readonly Tool[],
  callbacks: ToolCallbacks,
  agent: LlmAgent,
): AsyncGenerator<Event, void, undefined> {
  const events = context.session.events;
  const replyIndex = latestReplyIndex(events);
  if (replyIndex < 0) return;
  const replyEvent = events[replyIndex]!;
  const refuse = (code: string, message: string) => {
    context.endInvocation = true;
    return createEvent({
      invocationId: context.invocationId,
      author: agent.name,
      branch: context.branch,
      errorCode: code,
      errorMessage: message,
    });
  };
  if (replyEvent.author !== 'user') {
    yield refuse(
      'CONFIRMATION_REFUSED',
      `Confirmation reply refused: it was authored by "${replyEvent.author}", and only the user may confirm a tool call.`,
    );
    return;
  }

  const replies = parseReplies(replyEvent);
  if (replies.length === 0) return;
  const requests = confirmationRequests(events, agent.name, replyIndex);
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  const calls: FunctionCall[] = [];
  const confirmations: Record<string, ToolConfirmation> = {};

  for (const { confirmationId, confirmation } of replies) {
    const found = requests.get(confirmationId);
    if (!found) continue; // Another agent's request: that agent resumes it.
    if (found === 'conflict') {
      yield refuse('CONFIRMATION_REFUSED', `Confirmation "${confirmationId}" refused: the saved requests for it disagree.`);
      return;
    }
    const { original, index, digest } = found;
    const call = findOriginalCall(events, agent.name, original.id!, index);
    if (!call) {
      yield refuse(
        'CONFIRMATION_REFUSED',
        `Confirmation "${confirmationId}" refused: no call "${original.id}" of tool "${original.name}" was made by agent "${agent.name}".`,
      );
      return;
    }
    if (
      call.name !== original.name ||
      canonicalJson(call.args ?? {}) !== canonicalJson(original.args ?? {}) ||
      digest !== functionCallDigest(call)
    ) {
      yield refuse(
        'CONFIRMATION_REFUSED',
        `Confirmation "${confirmationId}" refused: the call it approves (tool "${original.name}") does not match the saved call "${call.id}" (tool "${call.name}"); the tool name or arguments were changed.`,
      );
      return;
    }
    if (answeredBetween(events, call.id!, index + 1, replyIndex)) {
      yield refuse(
        'CONFIRMATION_ALREADY_USED',
        `Confirmation "${confirmationId}" was already used: call "${call.id}" of tool "${call.name}" ran once and will not run again.`,
      );
      return;
    }
    // Within this invocation the call may already have been resumed (an earlier step): skip it.
    if (answeredBetween(events, call.id!, replyIndex + 1, events.length)) continue;
    if (confirmations[call.id!]) continue;
    confirmations[call.id!] = confirmation;
    calls.push(call);
  }
  if (calls.length === 0) return;

  const available: Record<string, Tool> = {};
  for (const call of calls) {
    const tool = toolsByName.get(call.name);
    if (tool) available[call.name] = tool;
  }
  yield* executeFunctionCalls({
    invocation: context,
    calls,
    tools: available,
    callbacks,
    confirmations,
    maxConcurrency: agent.maxToolConcurrency,
    toolTimeoutMs: agent.toolTimeoutMs,
  });
}

/** Index of the newest event carrying confirmation replies, if it is the newest user-side event. */
function latestReplyIndex(events: readonly Event[]): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    const hasReply = getFunctionResponses(event).some((r) => r.name === REQUEST_CONFIRMATION_FUNCTION);
    if (hasReply) return i;
    if (event.author === 'user') return -1;
  }
  return -1;
}

/** The confirmations in a reply event, keyed by confirmation call id (HC-7, HC-8 step 2). */
function parseReplies(event: Event): Reply[] {
  const replies: Reply[] = [];
  for (const response of getFunctionResponses(event)) {
    if (response.name !== REQUEST_CONFIRMATION_FUNCTION || !response.id) continue;
    let value: unknown = response.response;
    const keys = value && typeof value === 'object' ? Object.keys(value) : [];
    if (keys.length === 1 && keys[0] === 'response') {
      const inner = (value as Record<string, unknown>).response;
      if (typeof inner !== 'string')
        throw new Error(
          `error 'response' key found but value is not a string for confirmation function response for event id "${event.id}"`,
        );
      try {
        value = JSON.parse(inner);
      } catch (error) {
        throw new Error(
          `error 'response' key found but failed unmarshalling confirmation function response for event id "${event.id}": ${(error as Error).message}`,
        );
      }
    }
    const record = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
    const confirmation: ToolConfirmation = { confirmed: record.confirmed === true };
    if (typeof record.hint === 'string') confirmation.hint = record.hint;
    if (record.payload !== undefined) confirmation.payload = record.payload;
    replies.push({ confirmationId: response.id, confirmation });
  }
  return replies;
}

/** This agent's confirmation requests before the reply, by confirmation id (HC-8 step 3). */
function confirmationRequests(events: readonly Event[], agentName: string, before: number) {
  const requests = new Map<string, Request | 'conflict'>();
  for (let index = 0; index < before; index++) {
    const event = events[index]!;
    if (event.author !== agentName) continue;
    for (const call of getFunctionCalls(event)) {
      if (call.name !== REQUEST_CONFIRMATION_FUNCTION || !call.id) continue;
      const original = call.args?.originalFunctionCall as FunctionCall | undefined;
      if (!original || typeof original !== 'object' || typeof original.name !== 'string' || typeof original.id !== 'string')
        continue;
      const existing = requests.get(call.id);
      if (existing && (existing === 'conflict' || canonicalJson(existing.original) !== canonicalJson(original)))
        requests.set(call.id, 'conflict');
      else requests.set(call.id, { index, original, digest: call.args?.callDigest });
    }
  }
  return requests;
}

/** The model's call with this id, made by this agent before the confirmation request. */
function findOriginalCall(events: readonly Event[], agentName: string, id: string, before: number): FunctionCall | undefined {
  for (let i = before - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.author !== agentName) continue;
    const call = getFunctionCalls(event).find((c) => c.id === id && c.name !== REQUEST_CONFIRMATION_FUNCTION);
    if (call) return call;
  }
  return undefined;
}

function answeredBetween(events: readonly Event[], callId: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++)
    if (getFunctionResponses(events[i]!).some((r) => r.id === callId && r.name !== REQUEST_CONFIRMATION_FUNCTION))
      return true;
  return false;
}
