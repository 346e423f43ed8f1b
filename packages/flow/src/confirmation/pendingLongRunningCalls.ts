import type { FunctionCall } from '../content/content.js';
import { getFunctionCalls, getFunctionResponses, type Event } from '../content/event.js';
import { REQUEST_CONFIRMATION_FUNCTION } from '../llmFlow/buildContents.js';
import { pendingConfirmationRequests } from './confirmationRequests.js';
import { REQUEST_CREDENTIAL_FUNCTION } from '../auth/authTypes.js';
import { pendingCredentialRequestsIn } from '../auth/credentialRequests.js';

/** A long-running call still waiting for its real answer from outside (a person, a ticket system). */
export interface PendingLongRunningCall {
  readonly call: FunctionCall;
  /** The agent that made the call. */
  readonly author: string;
  /** What the tool answered for now (`{status: "pending", …}`), if anything. */
  readonly interim?: Record<string, unknown>;
}

/**
 * The long-running calls a session's events still wait for, oldest first: calls marked
 * long-running when made, or paused later by a resumable tool, until an answer authored by the
 * user (the client) arrives for their id. The tool's own interim answer does not end the wait; an
 * error does. A call paused for a confirmation (an agent tool whose child asks) is left to
 * `pendingConfirmationRequests`. Answer one with a function response of its id and name.
 */
export function pendingLongRunningCalls(events: readonly Event[]): PendingLongRunningCall[] {
  const made = new Map<string, { call: FunctionCall; author: string }>();
  const waiting = new Map<string, { call: FunctionCall; author: string; interim?: Record<string, unknown> }>();
  for (const event of events) {
    if (event.partial) continue;
    for (const call of getFunctionCalls(event))
      if (call.id && call.name !== REQUEST_CONFIRMATION_FUNCTION && call.name !== REQUEST_CREDENTIAL_FUNCTION) made.set(call.id, { call, author: event.author });
    for (const id of event.longRunningToolIds ?? []) {
      const found = made.get(id);
      if (found && !waiting.has(id)) waiting.set(id, { ...found });
    }
    for (const response of getFunctionResponses(event)) {
      const entry = response.id ? waiting.get(response.id) : undefined;
      if (!entry) continue;
      if (event.author === 'user' || Object.hasOwn(response.response ?? {}, 'error')) waiting.delete(response.id!);
      else if (response.response) entry.interim = response.response;
    }
  }
  for (const { originalCall } of pendingConfirmationRequests(events)) if (originalCall.id) waiting.delete(originalCall.id);
  for (const { originalCall } of pendingCredentialRequestsIn(events)) if (originalCall.id) waiting.delete(originalCall.id);
  return [...waiting.values()];
}
