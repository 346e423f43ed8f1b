import type { Part } from '../content/content.js';
import type { Event } from '../content/event.js';

/**
 * Whether a step may have calls to resume: the latest event that is not the current invocation's
 * own output has function responses (a confirmation, a credential, a paused call's answer). The
 * resume processors (`resumeCredentialCalls`, `resumeConfirmedCalls`, `resumePausedCalls`) each
 * look for a reply the same way, for responses of their own kind, so when this is false none of
 * them has anything to do, and a step skips them (#24: three generators a step for nothing).
 */
export function mayResume(events: readonly Event[], invocationId: string): boolean {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.author !== 'user' && event.invocationId === invocationId) continue;
    if (event.content?.parts?.some(isFunctionResponse)) return true;
    if (event.author === 'user') return false;
  }
  return false;
}

// One predicate for every event looked at, not a closure made for each (#24).
const isFunctionResponse = (part: Part): boolean => Boolean(part.functionResponse);
