import { STATE_PREFIX, type Session } from '@adkit/flow';
import type { DevUiTarget } from './devUiTarget.js';
import { displayEvent } from './displayEvent.js';
import { displayValue, setData } from './displayValue.js';
import { pendingCalls } from './pendingCalls.js';
import type { SessionRef } from './timelineRecorder.js';

/** The newest events a session view carries; older ones are counted, not sent. */
export const MAX_VIEW_EVENTS = 500;

/** The session's state by scope: its own keys, and the user's and app's shared ones (prefixes kept). */
export function stateScopes(state: Record<string, unknown>): { session: Record<string, unknown>; user: Record<string, unknown>; app: Record<string, unknown> } {
  const scopes = { session: {}, user: {}, app: {} } as { session: Record<string, unknown>; user: Record<string, unknown>; app: Record<string, unknown> };
  for (const key of Object.keys(state)) {
    const scope = key.startsWith(STATE_PREFIX.app) ? scopes.app : key.startsWith(STATE_PREFIX.user) ? scopes.user : scopes.session;
    setData(scope, key, state[key]);
  }
  return { session: displayValue(scopes.session) as Record<string, unknown>, user: displayValue(scopes.user) as Record<string, unknown>, app: displayValue(scopes.app) as Record<string, unknown> };
}

/**
 * Everything the page shows of a session, as plain JSON cut to displayable size: the newest
 * events, the state by scope, what waits (confirmations, long-running calls), the artifacts,
 * the model request last sent and the timeline (when the runner records them).
 */
export async function sessionView(target: DevUiTarget, session: Session, running: boolean): Promise<Record<string, unknown>> {
  const ref: SessionRef = { appName: session.appName, userId: session.userId, sessionId: session.id };
  const events = session.events.filter((event) => !event.partial);
  const shown = events.slice(-MAX_VIEW_EVENTS);
  const pending = await pendingCalls(session, events, target.confirmationSecret);
  return {
    session: { id: session.id, appName: session.appName, userId: session.userId, lastUpdateTime: session.lastUpdateTime },
    events: shown.map((event) => displayEvent(event)),
    omittedEvents: events.length - shown.length,
    state: stateScopes(session.state),
    pending: {
      confirmations: pending.confirmations.map((entry) =>
        displayValue({ callId: entry.call.id, author: entry.author, hint: entry.hint, payload: entry.payload, originalCall: entry.originalCall }),
      ),
      longRunning: pending.longRunning.map((entry) =>
        displayValue({ callId: entry.call.id, name: entry.call.name, args: entry.call.args ?? {}, author: entry.author, interim: entry.interim }),
      ),
      // The consent URL holds no secret (client id, state, PKCE challenge); the page links to it.
      credentials: pending.credentials.map((entry) =>
        displayValue({
          callId: entry.requestCall.id,
          toolName: entry.originalCall.name,
          author: entry.author,
          authUri: entry.authConfig.exchangedAuthCredential?.oauth2?.authUri ?? null,
          redirectUri: entry.authConfig.exchangedAuthCredential?.oauth2?.redirectUri ?? null,
        }),
      ),
    },
    artifacts: await artifactList(target, ref),
    running,
    recording: target.recorder !== undefined,
    request: target.recorder?.lastRequest(ref) ?? null,
    timeline: timelineView(target, ref),
  };
}

/** The timeline's turns and the server's clock (the page draws running calls up to now). */
export function timelineView(target: DevUiTarget, ref: SessionRef): Record<string, unknown> {
  return { now: performance.timeOrigin + performance.now(), recording: target.recorder !== undefined, turns: target.recorder?.timeline(ref) ?? [] };
}

async function artifactList(target: DevUiTarget, ref: SessionRef): Promise<{ available: boolean; items: unknown[]; error?: string }> {
  const service = target.runner.artifactService;
  if (!service) return { available: false, items: [] };
  try {
    const names = (await service.listArtifactKeys(ref)).slice(0, 1_000);
    const items = await Promise.all(
      names.map(async (filename) => ({ name: filename, versions: (await service.listVersions({ ...ref, filename })).slice(-100) })),
    );
    return { available: true, items: displayValue(items) as unknown[] };
  } catch (error) {
    return { available: true, items: [], error: String(displayValue(error instanceof Error ? error.message : error)) };
  }
}
