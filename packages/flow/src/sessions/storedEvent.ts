import type { Event } from '../content/event.js';
import { SessionError } from '../errors.js';
import { deepFreeze } from './deepFreeze.js';
import { toJsonText } from './jsonText.js';

/**
 * The version of the JSON a durable store keeps per event (`@adkit/session-sqlite`,
 * `@adkit/session-postgres`). Bump it, and keep a fixture of the old one in each store's
 * `test/fixtures/`, when the stored shape changes in a way old readers would misread.
 */
export const STORED_EVENT_FORMAT = 1;

/** An event row's payload: the format it was written in and its JSON text. */
export interface StoredEventRow {
  format: number;
  data: string;
}

/**
 * The event as a durable store writes it (pass it through `withoutTempState` first): JSON of
 * format `STORED_EVENT_FORMAT`; throws a `TypeError` on data JSON cannot keep (see `toJsonText`).
 */
export function encodeStoredEvent(event: Event): StoredEventRow {
  return { format: STORED_EVENT_FORMAT, data: toJsonText(event, 'event') };
}

/**
 * Reads an event row back, deep-frozen (stores share it between readers). `where` names the row
 * in errors, `store` the package that wrote it (`@adkit/session-sqlite`). Throws a `SessionError`
 * for a newer or unknown format and for broken JSON.
 */
export function decodeStoredEvent(row: StoredEventRow, where: string, store: string): Event {
  if (row.format > STORED_EVENT_FORMAT)
    throw new SessionError(
      `${where} was written in event format ${row.format} by a newer ${store}; this release reads formats up to ${STORED_EVENT_FORMAT}. Upgrade ${store}.`,
    );
  if (row.format !== STORED_EVENT_FORMAT)
    throw new SessionError(`${where} has unknown event format ${String(row.format)}; the database is damaged or was not written by ${store}.`);
  try {
    return deepFreeze(JSON.parse(row.data) as Event);
  } catch (cause) {
    throw new SessionError(`${where} holds invalid JSON; the database is damaged.`, { cause });
  }
}
