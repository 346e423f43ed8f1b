import type { Event } from '@adkit/flow';

/** The newest state a paused call saved (`ctx.setResumeState`), read from the session's events. */
export function savedResumeState(events: readonly Event[], callId: string): unknown {
  for (let i = events.length - 1; i >= 0; i--) {
    const states = events[i]!.actions?.resumeStates;
    if (states && Object.hasOwn(states, callId)) return states[callId];
  }
  return undefined;
}
