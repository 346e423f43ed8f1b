import { SessionError, type Event } from '@adkit/flow';
import { toJsonText } from './jsonText.js';

/**
 * The version of the JSON an event row holds. Bump it (and keep a fixture of the old one in
 * `test/fixtures/`) when the stored shape changes in a way old readers would misread.
 */
export const EVENT_FORMAT_VERSION = 1;

/** An event row's payload. */
export interface EncodedEvent {
  format: number;
  data: string;
}

/** The event as stored: JSON of format `EVENT_FORMAT_VERSION`; throws a `TypeError` on non-JSON data. */
export function encodeEvent(event: Event): EncodedEvent {
  return { format: EVENT_FORMAT_VERSION, data: toJsonText(event, 'event') };
}

/** Reads an event row back; `where` names the row in errors. */
export function decodeEvent(row: EncodedEvent, where: string): Event {
  if (row.format > EVENT_FORMAT_VERSION)
    throw new SessionError(
      `${where} was written in event format ${row.format} by a newer @adkit/session-sqlite; this release reads formats up to ${EVENT_FORMAT_VERSION}. Upgrade @adkit/session-sqlite.`,
    );
  if (row.format !== EVENT_FORMAT_VERSION)
    throw new SessionError(`${where} has unknown event format ${String(row.format)}; the database is damaged or was not written by @adkit/session-sqlite.`);
  try {
    return JSON.parse(row.data) as Event;
  } catch (cause) {
    throw new SessionError(`${where} holds invalid JSON; the database is damaged.`, { cause });
  }
}
