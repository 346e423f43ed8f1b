import { frozenEventCopy } from '../content/cloneData.js';
import type { Event } from '../content/event.js';
import { assignOwn, setOwnProperty } from '../content/ownProperty.js';
import type { Session } from './session.js';
import { STATE_PREFIX } from './state.js';

/** A state delta split by scope; `app` and `user` keys have their prefixes removed. */
export interface ScopedStateDelta {
  app: Record<string, unknown>;
  user: Record<string, unknown>;
  session: Record<string, unknown>;
}

/** Splits a state delta into app, user and session scopes, dropping `temp:` keys (TC-13). */
export function splitStateDelta(delta: Record<string, unknown> | undefined): ScopedStateDelta {
  const scoped: ScopedStateDelta = { app: {}, user: {}, session: {} };
  for (const [key, value] of Object.entries(delta ?? {})) {
    if (key.startsWith(STATE_PREFIX.app)) setOwnProperty(scoped.app, key.slice(STATE_PREFIX.app.length), value);
    else if (key.startsWith(STATE_PREFIX.user)) setOwnProperty(scoped.user, key.slice(STATE_PREFIX.user.length), value);
    else if (!key.startsWith(STATE_PREFIX.temp)) setOwnProperty(scoped.session, key, value);
  }
  return scoped;
}

/** Merges stored scopes back into one state object, app and user keys with their prefixes. */
export function mergeScopedState(scoped: ScopedStateDelta): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  assignOwn(state, scoped.session);
  assignOwn(state, scoped.app, STATE_PREFIX.app);
  assignOwn(state, scoped.user, STATE_PREFIX.user);
  return state;
}

/**
 * The event without `temp:` keys in its state delta (TC-13), sharing everything else with the
 * original (the event itself when it has none): for stores that serialize or copy right away.
 * Temp values may hold anything (functions, handles), since they are never stored.
 */
export function withoutTempState(event: Event): Event {
  // Most events carry no temp key: they are shared as they are, not copied (#24).
  let hasTemp = false;
  for (const key in event.actions.stateDelta)
    if (key.startsWith(STATE_PREFIX.temp)) {
      hasTemp = true;
      break;
    }
  if (!hasTemp) return event;
  const stateDelta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event.actions.stateDelta))
    if (!key.startsWith(STATE_PREFIX.temp)) setOwnProperty(stateDelta, key, value);
  return { ...event, actions: { ...event.actions, stateDelta } };
}

/**
 * The event as an in-memory store keeps it: a deep copy of `withoutTempState(event)`, deep-frozen
 * in the same walk (`frozenCopy`), so readers share it without copies and nobody can change it
 * afterwards.
 */
export function eventForStorage(event: Event): Event {
  return frozenEventCopy(withoutTempState(event));
}

/**
 * Applies an appended event to the caller's session object: every delta key (temp included, for
 * the rest of the invocation), the event itself (or `listed`, the store's frozen copy of it), the
 * update time and, when given, the session's new stored `version`.
 */
export function applyEventToSession(session: Session, event: Event, version?: number, listed: Event = event): void {
  assignOwn(session.state, event.actions.stateDelta);
  session.events.push(listed);
  session.lastUpdateTime = event.timestamp;
  if (version !== undefined) session.version = version;
}
