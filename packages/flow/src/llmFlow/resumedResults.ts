import type { Event } from '../content/event.js';
import { REQUEST_CONFIRMATION_FUNCTION } from './buildContents.js';
import { REQUEST_CREDENTIAL_FUNCTION } from '../auth/authTypes.js';

/**
 * What a resumed call produced after its started marker: its response, and the request a call
 * pausing again makes. These are the one exception to "a stale write is a conflict": the call ran
 * (its effect happened), so when another run appended to the session meanwhile (a new user
 * message), the runner appends them to the reloaded session instead of losing them, and ends the
 * resumed run there (its model would see a history that moved on). The late-answer rule then places
 * the response for the model. Marked in process (never saved): only the run that produced them
 * may rebase them.
 */
const produced = new WeakSet<Event>();

/** Marks an event a resumed call produced (see above). */
export function markResumedResult(event: Event): Event {
  produced.add(event);
  return event;
}

/** Whether this run's event is what a resumed call produced. */
export function isResumedResult(event: Event): boolean {
  return produced.has(event);
}

/**
 * Whether a stored event, appended by another run after `loaded` was read, is such a rebased
 * result: not the user's, from a run whose started marker `loaded` holds, and carrying only that
 * run's calls' responses, the requests they made, and text (a result shown to the user). Another
 * run's result landing in between is no conflict for this run: it appends after it.
 */
export function isLateResult(event: Event, loaded: readonly Event[]): boolean {
  if (event.author === 'user' || event.errorCode) return false;
  const started = new Set<string>();
  for (const other of loaded)
    if (other.invocationId === event.invocationId && other.author === event.author) for (const id of other.actions.startedToolCalls ?? []) started.add(id);
  if (started.size === 0) return false;
  let answers = 0;
  for (const part of event.content?.parts ?? []) {
    if (part.functionResponse) {
      if (!started.has(part.functionResponse.id ?? '')) return false;
      answers++;
    } else if (part.functionCall) {
      const { name, args } = part.functionCall;
      const original = name === REQUEST_CONFIRMATION_FUNCTION ? (args?.originalFunctionCall as { id?: unknown } | undefined)?.id : name === REQUEST_CREDENTIAL_FUNCTION ? args?.functionCallId : undefined;
      if (typeof original !== 'string' || !started.has(original)) return false;
      answers++;
    } else if (part.text === undefined) return false;
  }
  // A call paused again on its own saves only its long-running marker (no content).
  return answers > 0 || (event.longRunningToolIds ?? []).some((id) => started.has(id));
}
