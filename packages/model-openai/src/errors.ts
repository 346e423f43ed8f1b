/**
 * A request the adapter cannot send to OpenAI (a native Gemini tool, an unsupported file type, a
 * setting the chosen API lacks). Internal: the model turns it into an error response before any
 * request is made.
 */
export class UnsupportedRequestError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'UnsupportedRequestError';
    this.code = code;
  }
}
