import type { Content } from '../content/content.js';
import type { ToolCallDelta } from '../content/toolCallDelta.js';

/** Token counts reported by the provider. */
export interface UsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
  [key: string]: unknown;
}

/** Search grounding attached to a Gemini answer, passed through as the provider sent it. */
export type GroundingMetadata = Record<string, unknown>;

/** One response (or streamed chunk) from a model. */
export interface LlmResponse {
  content?: Content;
  /** A streamed chunk; the aggregate that follows is not partial. */
  partial?: boolean;
  turnComplete?: boolean;
  interrupted?: boolean;
  finishReason?: string;
  /** Set when the provider refused or failed; `errorMessage` says why. */
  errorCode?: string;
  errorMessage?: string;
  usageMetadata?: UsageMetadata;
  groundingMetadata?: GroundingMetadata;
  modelVersion?: string;
  customMetadata?: Record<string, unknown>;
  /** On a partial response: a function call's arguments as they stream (never a call to run). */
  toolCallDelta?: ToolCallDelta;
}
