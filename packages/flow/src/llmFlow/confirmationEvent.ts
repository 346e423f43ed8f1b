import type { Part } from '../content/content.js';
import { REQUEST_CONFIRMATION_FUNCTION } from './buildContents.js';
import { createEvent, type Event } from '../content/event.js';
import { newFunctionCallId } from '../content/ids.js';
import { hasOwnKeys } from '../content/ownProperty.js';
import type { InvocationContext } from '../context/invocationContext.js';
import { CONFIRMATION_FORMAT_VERSION, confirmationDigest } from '../confirmation/confirmationRequests.js';

/**
 * The confirmation-request event (HC-4): one `adk_request_confirmation` call per model call that
 * asked for confirmation, in part order, each with a new client id, marked long-running so the
 * run pauses. Each carries the format version and `callDigest`, which binds the approval to this
 * app, user, session, invocation, request and exact call (tool name, arguments, id) and to the
 * hint and payload shown — keyed with the runner's `confirmationSecret` when it has one. Undefined when
 * nothing asked.
 */
/** Whether a responses event carries confirmation requests, so that `confirmationEvent` has one to make. */
export function asksForConfirmation(responses: Event): boolean {
  return hasOwnKeys(responses.actions.requestedToolConfirmations);
}

export async function confirmationEvent(
  invocation: InvocationContext,
  modelEvent: Event,
  responses: Event,
): Promise<Event | undefined> {
  if (!asksForConfirmation(responses)) return undefined;
  const requested = responses.actions.requestedToolConfirmations!;
  const parts: Part[] = [];
  const ids: string[] = [];
  for (const part of modelEvent.content?.parts ?? []) {
    const call = part.functionCall;
    if (!call?.id || !Object.hasOwn(requested, call.id)) continue;
    const id = newFunctionCallId();
    const original = { id: call.id, name: call.name, args: call.args ?? {} };
    const confirmation = requested[call.id]!;
    const callDigest = await confirmationDigest(
      {
        appName: invocation.session.appName,
        userId: invocation.session.userId,
        sessionId: invocation.session.id,
        invocationId: invocation.invocationId,
        requestId: id,
        call: original,
        confirmation,
      },
      invocation.confirmationSecret,
    );
    ids.push(id);
    parts.push({
      functionCall: {
        id,
        name: REQUEST_CONFIRMATION_FUNCTION,
        args: { originalFunctionCall: original, toolConfirmation: confirmation, callDigest, formatVersion: CONFIRMATION_FORMAT_VERSION },
      },
      ...(part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : {}),
    });
  }
  if (parts.length === 0) return undefined;
  return createEvent({
    invocationId: invocation.invocationId,
    author: invocation.agentName,
    branch: invocation.branch,
    content: { role: 'model', parts },
    longRunningToolIds: ids,
  });
}
