import { REQUEST_CONFIRMATION_FUNCTION } from './buildContents.js';
import type { ToolCallbacks } from './callTool.js';
import type { FunctionCall } from '../content/content.js';
import { createEvent, getFunctionResponses, type Event } from '../content/event.js';
import type { ToolConfirmation } from '../content/eventActions.js';
import { quoted } from './quoted.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import type { Tool } from '../tools/tool.js';
import {
  checkConfirmationDigest,
  firstAskIndex,
  isCallAnswered,
  scanConfirmationRequests,
  type ConfirmationRequest,
} from '../confirmation/confirmationRequests.js';
import { interruptedMessage, lastPauseIndex, resumeStateOf, startedBetween } from './pausedCalls.js';
import { runResumedCalls } from './runResumedCalls.js';

interface Reply {
  confirmationId: string;
  confirmation: ToolConfirmation;
}

/**
 * The resume processor (HC-8): when the latest user event answers confirmation requests, re-runs
 * exactly the approved (or rejected) original calls with `toolConfirmation` set, and yields their
 * responses. Beyond ADK:
 * - only requests the flow created count (`scanConfirmationRequests`): a model's own
 *   `adk_request_confirmation`, or a stored request edited by hand, is refused, and so is one whose
 *   digest does not match (keyed with the runner's secret when there is one);
 * - a call that was answered (approved and run, or rejected) is never run again by any reply;
 * - at most once: a marker is saved before the calls run; a reply re-sent after a crash while a
 *   call ran finds the marker with no answer, and the model is told the call was interrupted —
 *   unless the tool is `idempotent`, which runs again. While the calls run, their process holds a
 *   lease on them, so the same reply delivered again meanwhile is refused before it is saved
 *   (`refuseRepeatedReply`), and the running call's result is kept.
 * - an approved call that pauses again (asks for another approval, a credential) is paused anew,
 *   as on its first run (`runResumedCalls`); the approval it consumed is spent: sent again, it is
 *   refused (`CONFIRMATION_ALREADY_USED`), and the call waits for the answer to its new request.
 * A refusal ends the invocation with an error event and runs nothing. Returns whether a call paused.
 */
export async function* resumeConfirmedCalls(
  context: InvocationContext,
  tools: readonly Tool[],
  callbacks: ToolCallbacks,
  agent: LlmAgent,
): AsyncGenerator<Event, boolean, undefined> {
  const events = context.session.events;
  const replyIndex = latestReplyIndex(events, context.invocationId);
  if (replyIndex < 0) return false;
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
    return false;
  }

  const replies = parseReplies(replyEvent);
  if (replies.length === 0) return false;
  const scan = scanConfirmationRequests(events.slice(0, replyIndex));
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  const queued: { call: FunctionCall; order: readonly [number, number] }[] = [];
  const confirmations: Record<string, ToolConfirmation> = {};
  const resumeStates: Record<string, unknown> = {};
  const refusals = new Map<string, string>();

  for (const { confirmationId, confirmation } of replies) {
    const invalid = scan.refused.get(confirmationId);
    if (invalid) {
      if (invalid.author !== agent.name) continue; // Another agent's: that agent answers it.
      yield refuse('CONFIRMATION_REFUSED', `Confirmation "${quoted(confirmationId)}" refused: ${invalid.problem}. Nothing was run.`);
      return false;
    }
    const request = scan.valid.get(confirmationId);
    if (!request || request.author !== agent.name) continue;
    const call = request.originalCall;
    const callId = call.id!;
    // Within this invocation the call may already have been resumed (an earlier step): skip it.
    if (isCallAnswered(events, callId, replyIndex + 1) || Object.hasOwn(confirmations, callId)) continue;
    if (isCallAnswered(events.slice(0, replyIndex), callId, firstAskIndex(events, callId) + 1)) {
      yield refuse(
        'CONFIRMATION_ALREADY_USED',
        `Confirmation "${quoted(confirmationId)}" refused: call "${quoted(callId)}" of tool "${quoted(call.name)}" was already answered (approved and run, or rejected) and will not run again.`,
      );
      return false;
    }
    // Resumed with this approval, the call paused again since: the approval was spent there.
    if (lastPauseIndex(events, callId, replyIndex) > request.index) {
      yield refuse(
        'CONFIRMATION_ALREADY_USED',
        `Confirmation "${quoted(confirmationId)}" refused: call "${quoted(callId)}" of tool "${quoted(call.name)}" already ran with it and now waits for a newer answer. Nothing was run.`,
      );
      return false;
    }
    const { appName, userId, id: sessionId } = context.session;
    const digestProblem = await checkConfirmationDigest(request, { appName, userId, sessionId }, context.confirmationSecret);
    if (digestProblem) {
      yield refuse('CONFIRMATION_REFUSED', `Confirmation "${quoted(confirmationId)}" refused: ${digestProblem}. Nothing was run.`);
      return false;
    }
    const tool = toolsByName.get(call.name);
    if (startedBetween(events, callId, request.index + 1, replyIndex) && !tool?.idempotent)
      refusals.set(callId, interruptedMessage(call));
    confirmations[callId] = confirmation;
    resumeStates[callId] = resumeStateOf(events, callId, replyIndex);
    queued.push({ call, order: requestOrder(events, request) });
  }
  if (queued.length === 0) return false;
  // HC-8 step 4: the calls run and merge in the order they were asked, whatever the reply's order.
  const calls = queued.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]).map((entry) => entry.call);
  // An approved call may then ask for a credential (AU-2), or for another approval.
  return yield* runResumedCalls(context, agent, { calls, tools: toolsByName, callbacks, confirmations, resumeStates, refusals });
}

/** Where a request was asked: its event's index, then its place among that event's parts. */
function requestOrder(events: readonly Event[], request: ConfirmationRequest): readonly [number, number] {
  const parts = events[request.index]?.content?.parts ?? [];
  return [request.index, parts.findIndex((part) => part.functionCall?.id === request.requestCall.id)];
}

/**
 * Index of the newest event carrying confirmation replies, if it is the newest user-side event.
 * The agent's own events of this invocation are passed over: they include the flow's error answers
 * to a model's forged `adk_request_confirmation` calls, which are no replies.
 */
function latestReplyIndex(events: readonly Event[], invocationId: string): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.author !== 'user' && event.invocationId === invocationId) continue;
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
