// The public API of @adkit/function-tool. Every line here is an API decision.
export type { FunctionTool, FunctionToolOptions, FunctionToolResult } from './functionTool.js';
export { functionTool } from './functionTool.js';
export type { AuthorizedOutcome } from './authStep.js';
export { CredentialRejectedError, PENDING_AUTHORIZATION } from './authStep.js';
export type { StreamingFunctionTool, StreamingFunctionToolOptions } from './streamingFunctionTool.js';
export { streamingFunctionTool } from './streamingFunctionTool.js';
export type {
  FunctionToolBaseOptions,
  RequireConfirmation,
  ConfirmationCondition,
  ConfirmationRequirement,
} from './functionToolOptions.js';
