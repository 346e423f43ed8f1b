import type { Part } from '../content/content.js';
import type { EventActions } from '../content/eventActions.js';
import type { ReadonlyContext } from './readonlyContext.js';
import type { State } from '../sessions/state.js';

/** What callbacks get: writable state and artifacts, recorded on the event's actions. */
export interface CallbackContext extends ReadonlyContext {
  readonly state: State;
  /** The actions of the event being built; changes here are saved with it. */
  readonly actions: EventActions;
  /** Aborts when the run is cancelled (and, for tools, when the call times out). */
  readonly signal: AbortSignal;
  /** The given version of an artifact, or the latest; `undefined` when there is none. */
  loadArtifact(filename: string, version?: number): Promise<Part | undefined>;
  /** Saves a new version, records it in `actions.artifactDelta`, and resolves to its number. */
  saveArtifact(filename: string, artifact: Part): Promise<number>;
  listArtifacts(): Promise<string[]>;
}
