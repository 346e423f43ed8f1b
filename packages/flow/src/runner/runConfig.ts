/** How one invocation runs. */
export interface RunConfig {
  /** `sse` streams partial model responses as partial events; default `none`. */
  streamingMode?: 'none' | 'sse';
  /** The most model calls one invocation may make before it stops with an error event (default 500). */
  maxLlmCalls?: number;
}

export const DEFAULT_MAX_LLM_CALLS = 500;
