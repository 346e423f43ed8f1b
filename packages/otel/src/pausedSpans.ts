import { REQUEST_CONFIRMATION_FUNCTION, getFunctionCalls, type Content, type Event, type State } from '@adkit/flow';
import { isSpanContextValid, type SpanContext } from '@opentelemetry/api';

/**
 * The session-state key under which the plugin keeps the span of each paused call (call id →
 * W3C `traceparent`), so that the run that resumes it links to it — in this process or, with a
 * durable session service, in another one after a restart. It holds the newest 32 paused calls.
 */
export const PAUSED_SPANS_STATE_KEY = 'otel:pausedSpans';

const MAX_PAUSED_SPANS = 32;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** Records a paused call's span in the call's state delta (saved with its response event). */
export function savePausedSpan(state: State, callId: string, span: SpanContext): void {
  const saved = pausedSpans(state.get(PAUSED_SPANS_STATE_KEY));
  const entries = saved.filter(([id]) => id !== callId);
  entries.push([callId, traceparent(span)]);
  state.set(PAUSED_SPANS_STATE_KEY, Object.fromEntries(entries.slice(-MAX_PAUSED_SPANS)));
}

/** A paused call that a new message resumes. */
export interface ResumedCall {
  /** A confirmation reply, or the client's response to a long-running call. */
  via: 'confirmation' | 'response';
  /** The span of the call when it paused, if the plugin saved one. */
  pausedSpan?: SpanContext;
}

/**
 * The calls a new message resumes, by original call id: a function response answers a
 * long-running call by its id; a confirmation reply answers the `adk_request_confirmation` call,
 * whose `originalFunctionCall` is looked up in the session's events.
 */
export function resumedCalls(
  message: Content | undefined,
  state: Record<string, unknown>,
  events: readonly Event[],
): Map<string, ResumedCall> {
  const resumed = new Map<string, ResumedCall>();
  const parts = message?.parts;
  if (!Array.isArray(parts)) return resumed;
  let saved: Map<string, string> | undefined;
  let confirmations: Map<string, string> | undefined;
  for (const part of parts) {
    const response = part?.functionResponse;
    if (typeof response?.id !== 'string') continue;
    const via = response.name === REQUEST_CONFIRMATION_FUNCTION ? 'confirmation' : 'response';
    if (via === 'confirmation') confirmations ??= confirmationRequests(events);
    const callId = via === 'confirmation' ? confirmations?.get(response.id) : response.id;
    if (callId === undefined) continue;
    saved ??= new Map(Object.hasOwn(state, PAUSED_SPANS_STATE_KEY) ? pausedSpans(state[PAUSED_SPANS_STATE_KEY]) : []);
    const pausedSpan = parseTraceparent(saved.get(callId));
    resumed.set(callId, pausedSpan ? { via, pausedSpan } : { via });
  }
  return resumed;
}

/** The W3C `traceparent` of a span. */
export function traceparent(span: SpanContext): string {
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** A span context from a W3C `traceparent`; `undefined` for anything else. */
export function parseTraceparent(value: unknown): SpanContext | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value);
  if (!match) return undefined;
  const span: SpanContext = { traceId: match[1]!, spanId: match[2]!, traceFlags: parseInt(match[3]!, 16), isRemote: true };
  return isSpanContextValid(span) ? span : undefined;
}

/** The saved entries, oldest first; anything that is not a call id → string is dropped. */
function pausedSpans(value: unknown): Array<[string, string]> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  const entries: Array<[string, string]> = [];
  for (const [id, saved] of Object.entries(value)) if (typeof saved === 'string') entries.push([id, saved]);
  return entries.slice(-MAX_PAUSED_SPANS);
}

/**
 * Confirmation request id → the id of the call it is about, from one pass over the events (a
 * message with many replies costs one scan); the newest request wins.
 */
function confirmationRequests(events: readonly Event[]): Map<string, string> {
  const requests = new Map<string, string>();
  for (const event of events)
    for (const call of getFunctionCalls(event)) {
      if (call.name !== REQUEST_CONFIRMATION_FUNCTION || typeof call.id !== 'string') continue;
      const original = call.args?.originalFunctionCall;
      const id = original && typeof original === 'object' ? (original as { id?: unknown }).id : undefined;
      if (typeof id === 'string') requests.set(call.id, id);
    }
  return requests;
}
