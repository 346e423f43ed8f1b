import type { Content } from '../content/content.js';
import type { ReadonlyState } from '../sessions/state.js';

/** What toolsets and instruction providers may read about the current invocation (TC-2). */
export interface ReadonlyContext {
  readonly userContent?: Content;
  readonly invocationId: string;
  readonly agentName: string;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly branch?: string;
  readonly state: ReadonlyState;
}
