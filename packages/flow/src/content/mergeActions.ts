import { createEventActions, type EventActions } from './eventActions.js';
import { copyOwn, ownValue, setOwnProperty } from './ownProperty.js';

/**
 * Merges the actions of parallel calls left to right (FL-14): booleans OR-ed, the last transfer
 * wins, state deltas deep-merged, the highest artifact version per name, confirmations united.
 */
export function mergeActions(all: readonly EventActions[]): EventActions {
  const merged = createEventActions();
  for (const actions of all) {
    if (actions.skipSummarization) merged.skipSummarization = true;
    if (actions.escalate) merged.escalate = true;
    if (actions.transferToAgent) merged.transferToAgent = actions.transferToAgent;
    deepMerge(merged.stateDelta, actions.stateDelta);
    for (const [name, version] of Object.entries(actions.artifactDelta))
      setOwnProperty(merged.artifactDelta, name, Math.max((ownValue(merged.artifactDelta, name) as number | undefined) ?? version, version));
    if (actions.requestedToolConfirmations && Object.keys(actions.requestedToolConfirmations).length > 0)
      merged.requestedToolConfirmations = { ...merged.requestedToolConfirmations, ...actions.requestedToolConfirmations };
    if (actions.requestedAuthConfigs && Object.keys(actions.requestedAuthConfigs).length > 0)
      merged.requestedAuthConfigs = { ...merged.requestedAuthConfigs, ...actions.requestedAuthConfigs };
    if (actions.resumeStates && Object.keys(actions.resumeStates).length > 0)
      merged.resumeStates = { ...merged.resumeStates, ...actions.resumeStates };
    if (actions.startedToolCalls?.length) merged.startedToolCalls = [...(merged.startedToolCalls ?? []), ...actions.startedToolCalls];
  }
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepMerge(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = ownValue(target, key);
    if (isPlainObject(existing) && isPlainObject(value)) {
      const copy = copyOwn(existing);
      deepMerge(copy, value);
      setOwnProperty(target, key, copy);
    } else {
      setOwnProperty(target, key, value);
    }
  }
}
