// `@adkit/flow/model-kit`: building blocks for model adapter authors (the OpenAI and Gemini
// adapters use them). Every line here is an API decision.
export { raceAbort } from './model/raceAbort.js';
export type { RequestSignal } from './model/requestSignal.js';
export { requestSignal } from './model/requestSignal.js';
export {
  BrokenStreamError,
  brokenStreamResponse,
  count,
  emptyReplyResponse,
  incompleteStreamResponse,
  isBrokenStream,
  readStream,
} from './model/unusableReplies.js';
export type { FetchFunction, FetchGuard } from './model/guardedFetch.js';
export {
  DEFAULT_MAX_RESPONSE_BYTES,
  ResponseStalledError,
  ResponseTooLargeError,
  fetchGuardError,
  guardedFetch,
} from './model/guardedFetch.js';
