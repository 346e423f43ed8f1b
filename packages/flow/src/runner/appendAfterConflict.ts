import type { Event } from '../content/event.js';
import type { InvocationContext } from '../context/invocationContext.js';
import { isAdkitError } from '../errors.js';
import { isLateResult, isResumedResult } from '../llmFlow/resumedResults.js';
import type { Session, SessionService } from '../sessions/session.js';

/** How many times an append is rebased on a reloaded session before the conflict is reported. */
const MAX_REBASES = 5;

/**
 * Called when appending `event` met `SESSION_CONFLICT`. Appends it to the reloaded session instead
 * when the conflict cannot lose or interleave anything (see `resumedResults`):
 * - `event` is what a resumed call of this run produced (its response, the request it made when
 *   pausing again): the call ran, so its result is kept whatever was saved meanwhile; the run then
 *   ends (`endInvocation`) instead of calling the model on a history that moved on;
 * - or everything appended since this run loaded the session is another run's such result: this
 *   run's event goes after it.
 * The reloaded history must begin with exactly the events this run loaded. Returns false (the
 * caller reports the conflict) otherwise, or after `MAX_REBASES` conflicts in a row.
 */
export async function appendAfterConflict(service: SessionService, context: InvocationContext, event: Event): Promise<boolean> {
  const session = context.session;
  const own = isResumedResult(event);
  for (let attempt = 0; attempt < MAX_REBASES; attempt++) {
    const fresh = await service.getSession({ appName: session.appName, userId: session.userId, sessionId: session.id });
    if (!fresh || context.aborted) return false;
    const loaded = session.events;
    if (fresh.events.length < loaded.length || loaded.some((known, i) => fresh.events[i]!.id !== known.id)) return false;
    if (!own && !fresh.events.slice(loaded.length).every((other) => isLateResult(other, loaded))) return false;
    adopt(session, fresh);
    if (own) context.endInvocation = true;
    try {
      await service.appendEvent(session, event);
      return true;
    } catch (error) {
      if (!isAdkitError(error) || error.code !== 'SESSION_CONFLICT') throw error;
    }
  }
  return false;
}

/** Takes the stored session's events, state and version; this run's `temp:` state stays. */
function adopt(session: Session, fresh: Session): void {
  const temp = Object.entries(session.state).filter(([key]) => key.startsWith('temp:'));
  session.events = fresh.events;
  session.state = { ...fresh.state, ...Object.fromEntries(temp) };
  session.lastUpdateTime = fresh.lastUpdateTime;
  session.version = fresh.version;
}
