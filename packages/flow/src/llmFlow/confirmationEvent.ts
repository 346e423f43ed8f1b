import type { Part } from '../content/content.js';
import { REQUEST_CONFIRMATION_FUNCTION } from './buildContents.js';
import { functionCallDigest } from '../content/canonicalJson.js';
import { createEvent, type Event } from '../content/event.js';
import { newFunctionCallId } from '../content/ids.js';
import type { InvocationContext } from '../context/invocationContext.js';

/**
 * The confirmation-request event (HC-4): one `adk_request_confirmation` call per model call that
 * asked for confirmation, in part order, each with a new client id, marked long-running so the
 * run pauses. Each also carries `callDigest`, which binds the approval to that exact call (tool
 * name, arguments, id) when the run resumes. Undefined when nothing asked.
 */
export function confirmationEvent(invocation: InvocationContext, modelEvent: Event, responses: Event): Event | undefined {
  const requested = responses.actions.requestedToolConfirmations ?? {};
  if (Object.keys(requested).length === 0) return undefined;
  const parts: Part[] = [];
  const ids: string[] = [];
  for (const part of modelEvent.content?.parts ?? []) {
    const call = part.functionCall;
    if (!call?.id || !Object.hasOwn(requested, call.id)) continue;
    const id = newFunctionCallId();
    ids.push(id);
    parts.push({
      functionCall: {
        id,
        name: REQUEST_CONFIRMATION_FUNCTION,
        args: {
          originalFunctionCall: { id: call.id, name: call.name, args: call.args ?? {} },
          toolConfirmation: requested[call.id],
          callDigest: functionCallDigest(call),
        },
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
