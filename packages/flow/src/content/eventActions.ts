import type { AuthConfig } from '../auth/authTypes.js';
import { hasOwnKeys, setOwnProperty } from './ownProperty.js';

/** A confirmation asked for, or given, for one tool call (spec HC-1). */
export interface ToolConfirmation {
  hint?: string;
  confirmed: boolean;
  payload?: unknown;
}

/** What an event changes besides its content (spec TC-12). */
export interface EventActions {
  /** State changes; keys may carry the `app:`, `user:` and `temp:` prefixes. */
  stateDelta: Record<string, unknown>;
  /** Artifact name → the version this event saved. */
  artifactDelta: Record<string, number>;
  /** Do not call the model again to summarise this function response (FL-17). */
  skipSummarization?: boolean;
  /** Stop the enclosing loop agent. */
  escalate?: boolean;
  /** Hand the conversation to another agent. */
  transferToAgent?: string;
  /** Original function-call id → the confirmation requested for it (HC-1). */
  requestedToolConfirmations?: Record<string, ToolConfirmation>;
  /**
   * Function-call id → the credential the call asked for (AU-2), secrets removed; the flow turns
   * each into an `adk_request_credential` request.
   */
  requestedAuthConfigs?: Record<string, AuthConfig>;
  /** Function-call id → what the paused call saved to resume with (`ctx.setResumeState`). */
  resumeStates?: Record<string, unknown>;
  /**
   * Ids of resumed calls the flow is about to run, saved before they run, so that a crash while
   * they run is seen on the next resume and the call is not silently run twice.
   */
  startedToolCalls?: string[];
}

/** Fresh, empty actions: both maps allocated, as every new event has them (TC-12). */
export function createEventActions(init?: Partial<EventActions>): EventActions {
  // Most events start with nothing: no spreads for them (a tenth of the calls' cost each, #24).
  if (init === undefined) return { stateDelta: {}, artifactDelta: {} };
  // One shape for every copy, its two maps first, the other keys after them: a spread of `init`,
  // which comes in many shapes, took 3% of a runner turn (#24). Own keys only, `__proto__` as data.
  const actions: EventActions = { stateDelta: copyMap(init.stateDelta), artifactDelta: copyMap(init.artifactDelta) };
  for (const key in init)
    if (key !== 'stateDelta' && key !== 'artifactDelta' && Object.hasOwn(init, key))
      setOwnProperty(actions as unknown as Record<string, unknown>, key, init[key as keyof EventActions]);
  return actions;
}

/** A shallow copy of a delta map; an empty or missing one is a fresh `{}`. */
function copyMap<T>(map: Record<string, T> | undefined): Record<string, T> {
  return hasOwnKeys(map) ? { ...map } : {};
}

/** True when the actions carry nothing worth persisting on their own. */
export function isEmptyActions(actions: EventActions): boolean {
  return (
    Object.keys(actions.stateDelta).length === 0 &&
    Object.keys(actions.artifactDelta).length === 0 &&
    !actions.skipSummarization &&
    !actions.escalate &&
    !actions.transferToAgent &&
    Object.keys(actions.requestedToolConfirmations ?? {}).length === 0 &&
    Object.keys(actions.requestedAuthConfigs ?? {}).length === 0 &&
    Object.keys(actions.resumeStates ?? {}).length === 0 &&
    (actions.startedToolCalls?.length ?? 0) === 0
  );
}
