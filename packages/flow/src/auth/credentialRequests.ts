import { canonicalJson, digestText } from '../content/canonicalJson.js';
import type { FunctionCall } from '../content/content.js';
import { getFunctionCalls, getFunctionResponses, type Event } from '../content/event.js';
import { REQUEST_CONFIRMATION_FUNCTION } from '../llmFlow/buildContents.js';
import { findAgentCall } from '../llmFlow/pausedCalls.js';
import { firstAskIndex, isCallAnswered } from '../confirmation/confirmationRequests.js';
import { REQUEST_CREDENTIAL_FUNCTION, type AuthConfig } from './authTypes.js';

/** The format of credential requests the flow writes (`formatVersion` in the request's args). */
export const CREDENTIAL_FORMAT_VERSION = 1;

/** A credential request the flow created (AU-3), as found in a session's events. */
export interface CredentialRequest {
  /** The `adk_request_credential` call; a reply answers its id. */
  readonly requestCall: FunctionCall;
  /** The tool call waiting for the credential, as the model made it. */
  readonly originalCall: FunctionCall;
  /** The consent request as the flow stored it (no secrets): the URL to send the user to is `exchangedAuthCredential.oauth2.authUri`. */
  readonly authConfig: AuthConfig;
  readonly author: string;
  readonly invocationId: string;
  /** Index of the request event in the events. */
  readonly index: number;
}

/** A call named `adk_request_credential` that the flow did not create (or that was edited). */
export interface RefusedCredentialRequest {
  readonly requestCall: FunctionCall;
  readonly author: string;
  readonly index: number;
  readonly problem: string;
}

/** Every credential request in the events, valid or not, by request call id. */
export interface CredentialRequestScan {
  readonly valid: ReadonlyMap<string, CredentialRequest>;
  readonly refused: ReadonlyMap<string, RefusedCredentialRequest>;
}

/**
 * Finds the credential requests in a session's events and checks that the flow created each, as
 * `scanConfirmationRequests` does for approvals: the request event is long-running and follows, in
 * the same invocation and by the same agent, the response event whose `requestedAuthConfigs`
 * asked for that call (a confirmation request of the same step may sit between them); the call it
 * names is the agent's saved call; its scheme, raw credential and key are the ones the tool asked
 * with. The one definition of a valid request, for the resume path and `pendingCredentialRequests`.
 */
export function scanCredentialRequests(events: readonly Event[]): CredentialRequestScan {
  const valid = new Map<string, CredentialRequest>();
  const refused = new Map<string, RefusedCredentialRequest>();
  for (let index = 0; index < events.length; index++) {
    const event = events[index]!;
    if (event.author === 'user' || event.partial) continue;
    for (const call of getFunctionCalls(event)) {
      if (call.name !== REQUEST_CREDENTIAL_FUNCTION || !call.id) continue;
      const refuse = (problem: string) => {
        valid.delete(call.id!);
        refused.set(call.id!, { requestCall: call, author: event.author, index, problem });
      };
      if (valid.has(call.id) || refused.has(call.id)) {
        refuse(`two saved requests share the id "${call.id}"`);
        continue;
      }
      const checked = checkRequest(events, index, event, call);
      if (typeof checked === 'string') refuse(checked);
      else valid.set(call.id, checked);
    }
  }
  return { valid, refused };
}

function checkRequest(events: readonly Event[], index: number, event: Event, call: FunctionCall): CredentialRequest | string {
  if (!event.longRunningToolIds?.includes(call.id!))
    return `"${REQUEST_CREDENTIAL_FUNCTION}" was called by the model, not created by the flow; the name is reserved`;
  const args = call.args ?? {};
  if (args.formatVersion !== CREDENTIAL_FORMAT_VERSION) return `it has an unknown format version ${String(args.formatVersion)}`;
  const callId = args.functionCallId;
  const config = args.authConfig as AuthConfig | undefined;
  if (typeof callId !== 'string' || !config || typeof config !== 'object' || !config.authScheme)
    return 'it names no call or no auth config';
  let responses = events[index - 1];
  if (responses && isRequestEvent(responses, REQUEST_CONFIRMATION_FUNCTION)) responses = events[index - 2];
  const requested = responses?.actions.requestedAuthConfigs;
  if (
    !responses ||
    responses.author !== event.author ||
    responses.invocationId !== event.invocationId ||
    !requested ||
    !Object.hasOwn(requested, callId) ||
    !getFunctionResponses(responses).some((response) => response.id === callId)
  )
    return `it does not follow the flow's response to call "${callId}" that asked for a credential`;
  const found = findAgentCall(events, event.author, callId, index);
  if (!found) return `no call "${callId}" was made by agent "${event.author}"`;
  const asked = requested[callId]!;
  if (
    canonicalJson(asked.authScheme) !== canonicalJson(config.authScheme) ||
    canonicalJson(asked.rawAuthCredential ?? null) !== canonicalJson(config.rawAuthCredential ?? null) ||
    (asked.credentialKey !== undefined && asked.credentialKey !== config.credentialKey)
  )
    return `its scheme, client or credential key differs from what tool "${found.call.name}" asked for`;
  return { requestCall: call, originalCall: found.call, authConfig: config, author: event.author, invocationId: event.invocationId, index };
}

function isRequestEvent(event: Event, name: string): boolean {
  const calls = getFunctionCalls(event);
  return calls.length > 0 && calls.every((call) => call.name === name);
}

/** What a credential request's digest covers. */
export interface CredentialBinding {
  sessionId: string;
  invocationId: string;
  requestId: string;
  call: FunctionCall;
  authConfig: AuthConfig;
}

/**
 * The digest a credential request carries: binds it to the session, invocation, request id, the
 * exact call and the consent request (scheme, endpoints, client, key, state, URL); keyed (HMAC)
 * with the runner's `confirmationSecret` when there is one.
 */
export function credentialDigest(binding: CredentialBinding, secret?: string): Promise<string> {
  const { sessionId, invocationId, requestId, call, authConfig } = binding;
  const text = [
    `adkit-credential/${CREDENTIAL_FORMAT_VERSION}`,
    sessionId,
    invocationId,
    requestId,
    call.id ?? '',
    call.name,
    canonicalJson(call.args ?? {}),
    canonicalJson(authConfig),
  ].join('\n');
  return digestText(text, secret);
}

/** Why the request's digest is not the one the flow wrote, or `undefined` when it is. */
export async function checkCredentialDigest(request: CredentialRequest, sessionId: string, secret: string | undefined): Promise<string | undefined> {
  const expected = await credentialDigest(
    { sessionId, invocationId: request.invocationId, requestId: request.requestCall.id!, call: request.originalCall, authConfig: request.authConfig },
    secret,
  );
  return request.requestCall.args?.callDigest === expected ? undefined : 'its digest does not match the request';
}

/** The ids of credential requests a user event has replied to. */
function repliedIds(events: readonly Event[]): Set<string> {
  const replied = new Set<string>();
  for (const event of events)
    if (event.author === 'user')
      for (const response of getFunctionResponses(event))
        if (response.name === REQUEST_CREDENTIAL_FUNCTION && response.id) replied.add(response.id);
  return replied;
}

/**
 * The credential requests still waiting for the user, oldest first: valid, not replied to, and
 * their call not answered since. `pendingCredentialRequests` of `@adkit/auth` shows them to apps.
 */
export function pendingCredentialRequestsIn(events: readonly Event[]): CredentialRequest[] {
  const { valid } = scanCredentialRequests(events);
  const replied = repliedIds(events);
  return [...valid.values()].filter(
    (request) =>
      !replied.has(request.requestCall.id!) &&
      !isCallAnswered(events, request.originalCall.id!, firstAskIndex(events, request.originalCall.id!) + 1),
  );
}
