/**
 * A function call as it forms: what a streaming model has sent of its arguments so far. Carried
 * by partial events (`Event.toolCallDelta`), which are yielded to the client and never saved, so a
 * UI can show the call being written. It is not a call: only the complete event that follows has
 * function calls, and a stream cut before that yields none (the flow runs nothing from a delta).
 */
export interface ToolCallDelta {
  /** The call's position in the model's turn (0 for the first call), stable across its deltas. */
  readonly index: number;
  /**
   * The provider's call id when it has sent one (OpenAI does, Gemini does not); the complete
   * event's call may carry another (the flow gives id-less calls an `adk-…` id).
   */
  readonly functionCallId?: string;
  /** The tool's name; empty while the provider has not sent it yet. */
  readonly name: string;
  /**
   * The arguments so far as text: OpenAI's raw JSON fragments joined (often not valid JSON yet);
   * Gemini's streamed arguments as the JSON of what has arrived.
   */
  readonly argsTextSoFar: string;
}
