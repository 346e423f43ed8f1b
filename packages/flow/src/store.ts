// `@adkit/flow/store`: building blocks for authors of session, artifact and memory services
// (the SQLite, Postgres and file-system stores use them). Every line here is an API decision.
export type { ScopedStateDelta } from './sessions/sessionState.js';
export { splitStateDelta, mergeScopedState, withoutTempState, eventForStorage, applyEventToSession } from './sessions/sessionState.js';
export { deepFreeze } from './sessions/deepFreeze.js';
export { checkSessionVersion } from './sessions/sessionVersion.js';
export { toJsonText } from './sessions/jsonText.js';
export type { StoredEventRow } from './sessions/storedEvent.js';
export { STORED_EVENT_FORMAT, encodeStoredEvent, decodeStoredEvent, prepareStoredEvent, storedStateText } from './sessions/storedEvent.js';
export { selectEvents, eventQuery } from './sessions/selectEvents.js';
export type { CachedSessionEvents } from './sessions/sessionEventCache.js';
export { SessionEventCache } from './sessions/sessionEventCache.js';
export { artifactNameProblem, assertArtifactName } from './services/artifactName.js';
export { assertArtifactPart } from './services/artifactPart.js';
export { memoryEntriesFromSession, memoryEntryText } from './services/memoryEntries.js';
export { canonicalJson } from './content/canonicalJson.js';
