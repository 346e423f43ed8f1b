import type { AuthConfig, AuthCredential } from '../auth/authTypes.js';
import type { FunctionCall } from '../content/content.js';
import type { Event } from '../content/event.js';
import type { ToolConfirmation } from '../content/eventActions.js';
import type { RequestContext } from './requestContext.js';

/** A progress report from a running tool call. */
export interface ProgressReport {
  message?: string;
  /** Completion between 0 and 1. */
  fraction?: number;
  /** An event to forward to the client (an agent tool's child event), tagged with this call. */
  event?: Event;
}

/**
 * What a tool gets for one call (TC-10): its call id and fresh actions, state, artifacts, memory,
 * the run's signal, and the confirmation protocol. Session internals (events, the agent, the run
 * config) are deliberately absent (TC-11).
 */
export interface ToolContext extends RequestContext {
  readonly functionCallId: string;
  /** The call being answered (name and arguments as the model sent them). */
  readonly functionCall?: FunctionCall;
  /** The confirmation given on resume; `undefined` on a first call (HC-8). */
  readonly toolConfirmation?: ToolConfirmation;
  /**
   * What this call saved with `setResumeState` when it paused (for confirmation, or as a
   * long-running call), given back when the call resumes; `undefined` on a first call.
   */
  readonly resumeState?: unknown;
  /**
   * Saves JSON data with this call's paused response, to be handed back as `resumeState` when the
   * call resumes, in this process or another (a durable session service keeps it).
   */
  setResumeState(state: unknown): void;
  /**
   * Asks the user to approve this call (HC-1): records the request on the actions and skips
   * summarization. It does not mean approval; answer the call with an error or a pending status.
   */
  requestConfirmation(request?: { hint?: string; payload?: unknown }): void;
  /**
   * Asks the user for a credential (AU-2): records the request on the actions (secrets removed)
   * and skips summarization; after this call's step the flow emits a long-running
   * `adk_request_credential` call with the consent URL, and the run ends. When the user has
   * consented, this call runs again and `getCredential` finds the credential. Answer the call with
   * a pending status meanwhile. Throws when an OAuth config is asked for and the runner has no
   * credential manager.
   */
  requestCredential(config: AuthConfig): void;
  /**
   * The ready credential for the config, or `undefined` when the user has not consented yet: an
   * API key or HTTP credential in the config as is, else through the runner's credential manager
   * (stored, refreshed when expired or when `forceRefresh` says the resource refused it). The one
   * found is also `ctx.credential`.
   */
  getCredential(config: AuthConfig, options?: { forceRefresh?: boolean }): Promise<AuthCredential | undefined>;
  /** The credential the last `getCredential` of this call found (`functionTool({auth})` gets it first). */
  readonly credential?: AuthCredential;
  /** Emits a partial progress event tagged with this call's id (never persisted). */
  reportProgress(progress: ProgressReport): void;
}
