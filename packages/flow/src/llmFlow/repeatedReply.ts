import type { Content, FunctionResponse } from '../content/content.js';
import { createEvent, type Event } from '../content/event.js';
import type { InvocationContext } from '../context/invocationContext.js';
import {
  firstAskIndex,
  isCallAnswered,
  scanConfirmationRequests,
  type ConfirmationRequestScan,
} from '../confirmation/confirmationRequests.js';
import { REQUEST_CONFIRMATION_FUNCTION } from './buildContents.js';
import { startedMarker } from './pausedCalls.js';
import { quoted } from './quoted.js';
import { callStatus } from './runningCalls.js';

interface Running {
  callId: string;
  toolName: string;
  author: string;
  where: 'running' | 'elsewhere';
  host?: string;
}

/**
 * Checked by the runner before it saves a user message: a message that delivers again an answer
 * whose call is still running (the same approval sent twice, to two runners or two processes at
 * once), or that only repeats approvals already used, is refused with an error event that is
 * **not saved**, and nothing runs. Saving it would make the running call's own process lose its
 * result to a `SESSION_CONFLICT`, and a reply saved there would read the call as interrupted.
 * - `CALL_IN_PROGRESS`: a call it answers was started (its marker is saved, with no answer yet)
 *   and still runs — in this process, in a live process on this machine, or on another machine
 *   (which cannot be checked from here); its result is saved when it finishes.
 * - `CONFIRMATION_ALREADY_USED`: every part of the message is an approval or rejection of a call
 *   that was answered already.
 * Undefined when the message goes on as usual (the resume path makes its own checks).
 */
export function refuseRepeatedReply(context: InvocationContext, message: Content): Event | undefined {
  const parts = message.parts ?? [];
  // A plain message, nearly every one, answers no call: no list made for it (#24).
  if (!parts.some((part) => part.functionResponse?.id)) return undefined;
  const responses = parts.flatMap((part) => (part.functionResponse?.id ? [part.functionResponse] : []));
  const events = context.session.events;
  let scan: ConfirmationRequestScan | undefined;
  const scanOf = () => (scan ??= scanConfirmationRequests(events));
  const running: Running[] = [];
  let used: { replyId: string; callId: string; toolName: string; author: string } | undefined;
  let onlyUsedApprovals = parts.length === responses.length;
  for (const response of responses) {
    const target = targetOf(response, events, scanOf);
    if (!target) {
      onlyUsedApprovals = false;
      continue;
    }
    if (target.confirmation && isCallAnswered(events, target.callId, firstAskIndex(events, target.callId) + 1)) {
      used ??= { replyId: response.id!, callId: target.callId, toolName: target.toolName, author: target.author };
      continue;
    }
    onlyUsedApprovals = false;
    const marker = startedMarker(events, target.callId, target.from);
    if (!marker || isCallAnswered(events, target.callId, marker.index + 1)) continue;
    const where = callStatus(marker.event, target.callId);
    if (where === 'ended') continue;
    const host = marker.event.customMetadata?.adkitStartedOn;
    running.push({ ...target, where, host: typeof host === 'string' ? host : undefined });
  }
  const refuse = (author: string, errorCode: string, errorMessage: string) =>
    createEvent({ invocationId: context.invocationId, author, branch: context.branch, errorCode, errorMessage });
  if (running.length > 0) {
    // At most a few named (a message may answer thousands of calls); the count says the rest.
    const named = running.slice(0, 3).map(
      (call) =>
        `call "${quoted(call.callId)}" of tool "${quoted(call.toolName)}" is still running ${
          call.where === 'running' ? 'on this machine' : `on machine "${quoted(call.host ?? '')}", where it was started (it may still run there)`
        }`,
    );
    return refuse(
      running[0]!.author,
      'CALL_IN_PROGRESS',
      `Reply refused: ${named.join('; ')}${running.length > 3 ? `; and ${running.length - 3} more calls` : ''}. This answer was already delivered; the result is saved when the call finishes. Nothing of this message was saved or run.`,
    );
  }
  if (used && onlyUsedApprovals)
    return refuse(
      used.author,
      'CONFIRMATION_ALREADY_USED',
      `Confirmation "${quoted(used.replyId)}" refused: call "${quoted(used.callId)}" of tool "${quoted(used.toolName)}" was already answered (approved and run, or rejected) and will not run again.`,
    );
  return undefined;
}

/** The call a response answers: a confirmation reply's original call, or the call with its id. */
function targetOf(
  response: FunctionResponse,
  events: readonly Event[],
  scanOf: () => ConfirmationRequestScan,
): { callId: string; toolName: string; author: string; from: number; confirmation: boolean } | undefined {
  if (response.name === REQUEST_CONFIRMATION_FUNCTION) {
    const request = scanOf().valid.get(response.id!);
    if (!request) return undefined;
    return { callId: request.originalCall.id!, toolName: request.originalCall.name, author: request.author, from: request.index + 1, confirmation: true };
  }
  const marker = startedMarker(events, response.id!, 0);
  if (!marker) return undefined;
  return { callId: response.id!, toolName: response.name, author: marker.event.author, from: 0, confirmation: false };
}
