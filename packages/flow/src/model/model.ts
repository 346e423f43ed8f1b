import type { LlmRequest } from './llmRequest.js';
import type { LlmResponse } from './llmResponse.js';

/** How a model is asked to answer one request. */
export interface GenerateContentOptions {
  /** Stream partial responses before the aggregate. */
  stream: boolean;
  /** Aborts the provider call. */
  signal?: AbortSignal;
}

/**
 * A language model. Adapters (`@adkit/model-openai`, `@adkit/model-gemini`) and the test
 * `ScriptedModel` implement it. A streaming call yields partial responses and then one complete
 * response; a non-streaming call yields one complete response. Provider failures are yielded as a
 * response with `errorCode`/`errorMessage`, not thrown.
 */
export interface Model {
  readonly model: string;
  generateContent(request: LlmRequest, options: GenerateContentOptions): AsyncGenerator<LlmResponse>;
}

/** True when the value looks like a `Model` (structural check). */
export function isModel(value: unknown): value is Model {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<Model>).model === 'string' &&
    typeof (value as Partial<Model>).generateContent === 'function'
  );
}
