import type { Part } from '../content/content.js';
import { createEvent, getFunctionCalls, type Event } from '../content/event.js';
import { newFunctionCallId } from '../content/ids.js';
import type { InvocationContext } from '../context/invocationContext.js';
import { errorMessage } from '../errors.js';
import type { EventActions } from '../content/eventActions.js';
import { REQUEST_CREDENTIAL_FUNCTION, type AuthConfig } from '../auth/authTypes.js';
import { credentialKeyOf } from '../auth/credentialKey.js';
import { CREDENTIAL_FORMAT_VERSION, credentialDigest } from '../auth/credentialRequests.js';
import { redactAuthConfig } from '../auth/redactAuthConfig.js';
import { hasOwnKeys } from '../content/ownProperty.js';

/**
 * Passes a batch's events through; when the merged responses event asks for credentials
 * (`requestedAuthConfigs`, AU-2), the credential manager makes each consent request first, then
 * the responses event is yielded, then one long-running `adk_request_credential` event (AU-3)
 * with a call per request, in call order: args `{functionCallId, authConfig, callDigest,
 * formatVersion}`. A request the manager cannot make (the provider is down, discovery fails)
 * answers its call with an error the model sees instead, and is dropped. Used on every path that
 * runs calls, so a call resumed after an approval may still ask for a credential.
 */
export async function* withCredentialRequests(
  invocation: InvocationContext,
  events: AsyncIterable<Event>,
): AsyncGenerator<Event, void, undefined> {
  for await (const event of events) {
    if (!asksForCredentials(event)) yield event;
    else yield* await credentialRequestEvents(invocation, event);
  }
}

/** Whether `withCredentialRequests` changes this event: a complete one with `requestedAuthConfigs`. */
export function asksForCredentials(event: Event): boolean {
  return !event.partial && hasOwnKeys(event.actions.requestedAuthConfigs);
}

/**
 * What `withCredentialRequests` yields for one event that asks for credentials (AU-2, AU-3): the
 * responses event, then the `adk_request_credential` event when a request was made. For a caller
 * that passes the other events on itself, one async-generator layer fewer for each (#24).
 */
export async function credentialRequestEvents(invocation: InvocationContext, event: Event): Promise<Event[]> {
  const made = await makeRequests(invocation, event, event.actions.requestedAuthConfigs!);
  if (made.parts.length === 0) return [made.responses];
  return [
    made.responses,
    createEvent({
      invocationId: invocation.invocationId,
      author: invocation.agentName,
      branch: invocation.branch,
      content: { role: 'model', parts: made.parts },
      longRunningToolIds: made.parts.map((part) => part.functionCall!.id!),
    }),
  ];
}

async function makeRequests(
  invocation: InvocationContext,
  responses: Event,
  requested: Record<string, AuthConfig>,
): Promise<{ responses: Event; parts: Part[] }> {
  const parts: Part[] = [];
  const failed = new Map<string, string>();
  const scope = { appName: invocation.appName, userId: invocation.userId, sessionId: invocation.session.id };
  const calls = new Map(invocation.session.events.flatMap(getFunctionCalls).map((call) => [call.id, call]));
  for (const callId of Object.keys(requested)) {
    const call = calls.get(callId);
    const asked = invocation.authConfigsAsked.get(callId) ?? requested[callId]!;
    if (!call) continue;
    try {
      if (!invocation.credentials) throw new Error('the runner has no credential manager');
      const credentialKey = await credentialKeyOf(asked);
      const request = await invocation.credentials.createRequest({ ...asked, credentialKey }, scope, { signal: invocation.signal });
      // Whatever the manager returns, only the redacted form is saved and shown.
      const authConfig = redactAuthConfig({ ...request, credentialKey });
      const id = newFunctionCallId();
      const callDigest = await credentialDigest(
        { sessionId: invocation.session.id, invocationId: invocation.invocationId, requestId: id, call, authConfig },
        invocation.confirmationSecret,
      );
      parts.push({
        functionCall: { id, name: REQUEST_CREDENTIAL_FUNCTION, args: { functionCallId: callId, authConfig, callDigest, formatVersion: CREDENTIAL_FORMAT_VERSION } },
      });
    } catch (error) {
      failed.set(
        callId,
        `Tool "${call.name}" needs the user's authorization, but the authorization request could not be made: ${errorMessage(error)}. Tell the user, or try again later.`,
      );
    }
    invocation.authConfigsAsked.delete(callId);
  }
  if (failed.size === 0) return { responses, parts };
  // A failed request answers its call with the error, and the call asks for nothing.
  const stillAsked = { ...requested };
  for (const id of failed.keys()) delete stillAsked[id];
  const content = responses.content && {
    ...responses.content,
    parts: (responses.content.parts ?? []).map((part) => {
      const id = part.functionResponse?.id;
      return id && failed.has(id) ? { functionResponse: { ...part.functionResponse!, response: { error: failed.get(id)! } } } : part;
    }),
  };
  const actions: EventActions = { ...responses.actions, requestedAuthConfigs: stillAsked };
  if (Object.keys(stillAsked).length === 0) {
    delete actions.requestedAuthConfigs;
    // The model should hear the error unless something else still skips summarization.
    if (Object.keys(actions.requestedToolConfirmations ?? {}).length === 0) delete actions.skipSummarization;
  }
  return { responses: { ...responses, content, actions }, parts };
}
