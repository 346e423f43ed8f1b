import type { AuthConfig, AuthCredential } from '../auth/authTypes.js';
import type { Content } from '../content/content.js';
import type { ReadonlyState } from '../sessions/state.js';
import type { Logger } from './logger.js';
import type { RunContext } from './runContext.js';

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
  /** The caller's per-run context (`runAsync({context})`); never saved. `{}` when none was given. */
  readonly context: RunContext;
  /** The runner's logger; report warnings here, never on stdout. */
  readonly logger: Logger;
  /**
   * The user's ready credential for the config, or `undefined` (see `ToolContext.getCredential`):
   * a toolset lists per user with it (an MCP server behind OAuth). Present on the flow's contexts.
   */
  getCredential?(config: AuthConfig, options?: { forceRefresh?: boolean }): Promise<AuthCredential | undefined>;
}
