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

/**
 * `selectEvents` as a query for a store that filters in SQL: undefined when the request selects
 * nothing at all, else the oldest time to keep (null: any) and how many of the newest to keep
 * (null: all), newest first.
 */
export function eventQuery(
  request: Pick<GetSessionRequest, 'numRecentEvents' | 'afterTimestamp'>,
): { after: number | null; limit: number | null } | undefined {
  const { numRecentEvents: recent, afterTimestamp: after } = request;
  if (recent !== undefined && !(recent > 0)) return undefined;
  if (after !== undefined && Number.isNaN(after)) return undefined;
  const limit = recent === undefined || !Number.isFinite(recent) || Math.trunc(recent) === 0 ? null : Math.trunc(recent);
  return { after: after ?? null, limit };
}
