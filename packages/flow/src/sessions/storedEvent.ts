import type { Event } from '../content/event.js';
import { SessionError } from '../errors.js';
import { deepFreeze } from './deepFreeze.js';
import { toJsonText } from './jsonText.js';
import { withoutTempState } from './sessionState.js';

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

/**
 * What a durable store's `appendEvent` writes for `event`: the event without `temp:` keys, and its
 * row. Throws a `SessionError` that names the event and the session when the event lacks what
 * storage relies on (a string id, a finite timestamp, `actions.stateDelta`: callers may come from
 * plain JavaScript) or holds data JSON cannot keep.
 */
export function prepareStoredEvent(event: Event, sessionId: string): { stored: Event; row: StoredEventRow } {
  const context = `Cannot append event "${String(event?.id)}" to session "${sessionId}"`;
  const problem =
    typeof event !== 'object' || event === null
      ? 'the event is not an object'
      : typeof event.id !== 'string'
        ? 'event.id must be a string'
        : typeof event.timestamp !== 'number' || !Number.isFinite(event.timestamp)
          ? 'event.timestamp must be a finite number of milliseconds since the epoch'
          : typeof event.actions !== 'object' || event.actions === null || typeof event.actions.stateDelta !== 'object' || event.actions.stateDelta === null
            ? 'event.actions.stateDelta must be an object (build events with createEvent)'
            : undefined;
  if (problem) throw new SessionError(`${context}: ${problem}.`);
  const stored = withoutTempState(event);
  return { stored, row: plainJsonOrThrow(context, () => encodeStoredEvent(stored)) };
}

/**
 * The JSON text of a new session's state for a durable store (see `toJsonText`); a `SessionError`
 * naming the session and the offending key when it holds data JSON cannot keep.
 */
export function storedStateText(state: Record<string, unknown>, sessionId: string): string {
  return plainJsonOrThrow(`Cannot create session "${sessionId}"`, () => toJsonText(state, 'state'));
}

/** Runs a JSON encoder, turning its TypeError into a SessionError that says what to store instead. */
function plainJsonOrThrow<T>(context: string, encode: () => T): T {
  try {
    return encode();
  } catch (cause) {
    throw new SessionError(`${context}: ${(cause as Error).message}. Session data must be plain JSON.`, { cause });
  }
}
