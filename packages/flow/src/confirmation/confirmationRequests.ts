import { canonicalJson, digestText, functionCallDigest } from '../content/canonicalJson.js';
import type { FunctionCall } from '../content/content.js';
import { getFunctionCalls, getFunctionResponses, type Event } from '../content/event.js';
import type { ToolConfirmation } from '../content/eventActions.js';
import { REQUEST_CONFIRMATION_FUNCTION } from '../llmFlow/buildContents.js';
import { quoted } from '../llmFlow/quoted.js';
import { REQUEST_CREDENTIAL_FUNCTION } from '../auth/authTypes.js';

/**
 * The format of confirmation requests the flow writes. Format 1 (no `formatVersion` field) bound
 * the digest to the call only; format 2 binds it to the session, invocation and request too, and
 * keys it with the runner's `confirmationSecret` when there is one; format 3 binds the app and
 * the user as well, so a request copied into another user's session of the same id is refused.
 * Requests of formats 1 and 2 saved before still resume (format 1 not once there is a secret).
 */
export const CONFIRMATION_FORMAT_VERSION = 3;

/** A confirmation request the flow created (HC-4), as found in a session's events. */
export interface ConfirmationRequest {
  /** The `adk_request_confirmation` call; a reply answers its id. */
  readonly requestCall: FunctionCall;
  /** The model's call waiting for approval, exactly as saved. */
  readonly originalCall: FunctionCall;
  /** What the tool asked for (hint, payload), as the flow recorded it. */
  readonly confirmation: ToolConfirmation;
  /** The agent that asked. */
  readonly author: string;
  readonly invocationId: string;
  /** Index of the request event in the events. */
  readonly index: number;
  readonly formatVersion: 1 | 2 | 3;
}

/** A call named `adk_request_confirmation` that the flow did not create (or that was edited). */
export interface RefusedConfirmationRequest {
  readonly requestCall: FunctionCall;
  readonly author: string;
  readonly index: number;
  /** Why it is not a valid request, for the error the client sees. */
  readonly problem: string;
}

/** Every confirmation request in the events, valid or not, by request call id. */
export interface ConfirmationRequestScan {
  readonly valid: ReadonlyMap<string, ConfirmationRequest>;
  readonly refused: ReadonlyMap<string, RefusedConfirmationRequest>;
}

/**
 * Finds the confirmation requests in a session's events and checks that the flow created each:
 * the request event is marked long-running and follows, in the same invocation and by the same
 * agent, the function-response event whose `requestedToolConfirmations` asked for that call; the
 * call it names is the model's saved call (same id, tool and arguments); its hint and payload are
 * the ones the tool recorded. A model's own call to `adk_request_confirmation`, or a stored request
 * edited by hand, is refused. The one definition of a valid request, shared by the resume path and
 * by `pendingConfirmations` in `@adkit/confirmation`.
 */
export function scanConfirmationRequests(events: readonly Event[]): ConfirmationRequestScan {
  const valid = new Map<string, ConfirmationRequest>();
  const refused = new Map<string, RefusedConfirmationRequest>();
  for (let index = 0; index < events.length; index++) {
    const event = events[index]!;
    if (event.author === 'user' || event.partial) continue;
    for (const call of getFunctionCalls(event)) {
      if (call.name !== REQUEST_CONFIRMATION_FUNCTION || !call.id) continue;
      const refuse = (problem: string) => {
        valid.delete(call.id!);
        refused.set(call.id!, { requestCall: call, author: event.author, index, problem });
      };
      if (valid.has(call.id) || refused.has(call.id)) {
        refuse(`two saved requests share the id "${quoted(call.id)}"`);
        continue;
      }
      const checked = checkRequest(events, index, event, call);
      if (typeof checked === 'string') refuse(checked);
      else valid.set(call.id, checked);
    }
  }
  return { valid, refused };
}

function checkRequest(events: readonly Event[], index: number, event: Event, call: FunctionCall): ConfirmationRequest | string {
  if (!event.longRunningToolIds?.includes(call.id!))
    return `"${REQUEST_CONFIRMATION_FUNCTION}" was called by the model, not created by the flow; the name is reserved`;
  const args = call.args ?? {};
  const version = args.formatVersion === undefined ? 1 : args.formatVersion;
  if (version !== 1 && version !== 2 && version !== CONFIRMATION_FORMAT_VERSION) return `it has an unknown format version ${String(version)}`;
  const original = args.originalFunctionCall as Partial<FunctionCall> | undefined;
  if (!original || typeof original !== 'object' || typeof original.id !== 'string' || typeof original.name !== 'string')
    return 'it names no original call';
  // The step's credential request event (AU-3) may sit between the responses and this request.
  let responses = events[index - 1];
  if (responses && isCredentialRequestEvent(responses)) responses = events[index - 2];
  const requested = responses?.actions.requestedToolConfirmations;
  if (
    !responses ||
    responses.author !== event.author ||
    responses.invocationId !== event.invocationId ||
    !requested ||
    !Object.hasOwn(requested, original.id) ||
    !getFunctionResponses(responses).some((response) => response.id === original.id)
  )
    return `it does not follow the flow's response to call "${quoted(original.id)}" that asked for confirmation`;
  const saved = findModelCall(events, event.author, original.id, index - 1);
  if (!saved) return `no call "${quoted(original.id)}" of tool "${quoted(original.name)}" was made by agent "${quoted(event.author)}"`;
  if (saved.name !== original.name || canonicalJson(saved.args ?? {}) !== canonicalJson(original.args ?? {}))
    return `the call it approves (tool "${quoted(original.name)}") does not match the saved call "${quoted(saved.id ?? '')}" (tool "${quoted(saved.name)}"); the tool name or arguments were changed`;
  const confirmation = requested[original.id]!;
  if (canonicalJson(confirmation) !== canonicalJson(args.toolConfirmation ?? {}))
    return `its hint or payload differs from what tool "${quoted(saved.name)}" asked for`;
  return {
    requestCall: call,
    originalCall: saved,
    confirmation,
    author: event.author,
    invocationId: event.invocationId,
    index,
    formatVersion: version,
  };
}

function isCredentialRequestEvent(event: Event): boolean {
  const calls = getFunctionCalls(event);
  return calls.length > 0 && calls.every((call) => call.name === REQUEST_CREDENTIAL_FUNCTION);
}

/** The model's call with this id, made by this agent before `before`. */
function findModelCall(events: readonly Event[], author: string, id: string, before: number): FunctionCall | undefined {
  for (let i = before - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.author !== author) continue;
    const call = getFunctionCalls(event).find((c) => c.id === id && c.name !== REQUEST_CONFIRMATION_FUNCTION && c.name !== REQUEST_CREDENTIAL_FUNCTION);
    if (call) return call;
  }
  return undefined;
}

/** The session a request belongs to: its digest binds all three (format 3). */
export interface ConfirmationScope {
  appName: string;
  userId: string;
  sessionId: string;
}

/** What a digest covers (formats 2 and 3; format 2 leaves out the app and the user). */
export interface ConfirmationBinding extends ConfirmationScope {
  invocationId: string;
  requestId: string;
  call: FunctionCall;
  confirmation: ToolConfirmation;
}

/**
 * The digest a request of the given format (default: the current one) carries; keyed (HMAC) with
 * the runner's secret when there is one.
 */
export function confirmationDigest(
  binding: ConfirmationBinding,
  secret?: string,
  version: 2 | 3 = CONFIRMATION_FORMAT_VERSION,
): Promise<string> {
  const { appName, userId, sessionId, invocationId, requestId, call, confirmation } = binding;
  const text = [
    `adkit-confirmation/${version}`,
    // Format 3: the app and the user too (each as JSON, so no value can pose as two fields).
    ...(version === 3 ? [JSON.stringify(appName), JSON.stringify(userId), JSON.stringify(sessionId)] : [sessionId]),
    invocationId,
    requestId,
    call.id ?? '',
    call.name,
    canonicalJson(call.args ?? {}),
    canonicalJson(confirmation),
  ].join('\n');
  return digestText(text, secret);
}

/**
 * Whether the request's digest is the one the flow wrote for this call in this session (of this
 * app and user, format 3). Format-1 requests carry an unkeyed digest of the call, so they are
 * refused once the runner has a secret. `undefined` when it matches, else why not.
 */
export async function checkConfirmationDigest(
  request: ConfirmationRequest,
  scope: ConfirmationScope,
  secret: string | undefined,
): Promise<string | undefined> {
  const digest = request.requestCall.args?.callDigest;
  if (request.formatVersion === 1) {
    if (secret !== undefined) return 'it was written before confirmation digests were keyed; ask again';
    return digest === (await functionCallDigest(request.originalCall)) ? undefined : 'its digest does not match the call';
  }
  const expected = await confirmationDigest(
    {
      ...scope,
      invocationId: request.invocationId,
      requestId: request.requestCall.id!,
      call: request.originalCall,
      confirmation: request.confirmation,
    },
    secret,
    request.formatVersion,
  );
  return digest === expected
    ? undefined
    : 'its digest does not match what the flow wrote for this call in this session of this app and user';
}

/**
 * The requests still waiting for the user that a reply would resume: `pendingConfirmationRequests`
 * and, of those, only the ones whose digest checks out for this session and secret — the same
 * check the resume path makes, so what is listed is what an approval runs.
 */
export async function verifiedPendingConfirmationRequests(
  session: { readonly appName: string; readonly userId: string; readonly id: string; readonly events: readonly Event[] },
  secret: string | undefined,
): Promise<ConfirmationRequest[]> {
  const scope = { appName: session.appName, userId: session.userId, sessionId: session.id };
  const pending = pendingConfirmationRequests(session.events);
  const problems = await Promise.all(pending.map((request) => checkConfirmationDigest(request, scope, secret)));
  return pending.filter((_, i) => problems[i] === undefined);
}

/**
 * Whether any event from `from` on answers the call: a function response with its id that does
 * not ask for confirmation or a credential again (a tool may ask once more after an approval or a
 * consent; that is no answer).
 */
export function isCallAnswered(events: readonly Event[], callId: string, from: number): boolean {
  for (let i = Math.max(from, 0); i < events.length; i++) {
    const event = events[i]!;
    if (!getFunctionResponses(event).some((r) => r.id === callId && r.name !== REQUEST_CONFIRMATION_FUNCTION && r.name !== REQUEST_CREDENTIAL_FUNCTION))
      continue;
    if (!asksAbout(event, callId)) return true;
  }
  return false;
}

/**
 * Index of the first event that asked for confirmation of the call, or for a credential for it:
 * from there on, an answer is final ("rejected stays rejected, answered stays answered"), whatever
 * requests follow.
 */
export function firstAskIndex(events: readonly Event[], callId: string): number {
  return events.findIndex((event) => asksAbout(event, callId));
}

/** Whether the event's response asks the user about the call (an approval or a credential). */
function asksAbout(event: Event, callId: string): boolean {
  const confirmations = event.actions.requestedToolConfirmations;
  const credentials = event.actions.requestedAuthConfigs;
  return (confirmations !== undefined && Object.hasOwn(confirmations, callId)) || (credentials !== undefined && Object.hasOwn(credentials, callId));
}

/** The ids of confirmation requests a user event has replied to. */
export function repliedRequestIds(events: readonly Event[]): Set<string> {
  const replied = new Set<string>();
  for (const event of events)
    if (event.author === 'user')
      for (const response of getFunctionResponses(event))
        if (response.name === REQUEST_CONFIRMATION_FUNCTION && response.id) replied.add(response.id);
  return replied;
}

/**
 * The requests still waiting for the user, oldest first: valid, not replied to, and their call
 * not answered since (a call answered once can never be approved again).
 */
export function pendingConfirmationRequests(events: readonly Event[]): ConfirmationRequest[] {
  const { valid } = scanConfirmationRequests(events);
  const replied = repliedRequestIds(events);
  return [...valid.values()].filter(
    (request) =>
      !replied.has(request.requestCall.id!) &&
      !isCallAnswered(events, request.originalCall.id!, firstAskIndex(events, request.originalCall.id!) + 1),
  );
}
