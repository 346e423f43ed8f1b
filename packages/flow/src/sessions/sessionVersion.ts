import { SessionConflictError } from '../errors.js';
import type { Session } from './session.js';

/**
 * Refuses a stale session (optimistic concurrency): throws a `SessionConflictError` when
 * `session.version` is set and is not `stored`, the version the store holds now. Session services
 * call it inside the write that appends, before storing anything. A session without a version
 * (built by hand) passes.
 */
export function checkSessionVersion(session: Session, stored: number): void {
  if (session.version === undefined || session.version === stored) return;
  throw new SessionConflictError(
    `Session "${session.id}" of app "${session.appName}" and user "${session.userId}" changed since it was loaded ` +
      `(it has version ${session.version}, the store has ${stored}): another runner or process appended to it first. ` +
      'Nothing was stored; load the session again with getSession and retry the turn.',
  );
}
