import type { Event } from '../content/event.js';
import type { GetSessionRequest } from './session.js';

/**
 * The events `getSession` returns for a request, as a new array: only those at or after
 * `afterTimestamp` (in append order, whatever their timestamps), then only the newest
 * `numRecentEvents` of those (none when it is 0 or less). Every session service filters this way.
 */
export function selectEvents(events: readonly Event[], request: Pick<GetSessionRequest, 'numRecentEvents' | 'afterTimestamp'>): Event[] {
  const { afterTimestamp: after, numRecentEvents: recent } = request;
  let selected = after === undefined ? events.slice() : events.filter((event) => event.timestamp >= after);
  if (recent !== undefined) selected = recent > 0 ? selected.slice(-recent) : [];
  return selected;
}
