// The public API of @adkit/flow. Every line here is an API decision.
export type {
  Role,
  FunctionCall,
  FunctionResponse,
  Blob,
  FileData,
  ExecutableCode,
  CodeExecutionResult,
  Part,
  Content,
  JsonSchema,
  FunctionDeclaration,
  GenaiTool,
  ToolConfig,
  GenerateContentConfig,
} from './content/content.js';
export { createUserContent, createModelContent } from './content/content.js';
export type { ToolConfirmation, EventActions } from './content/eventActions.js';
export { createEventActions, isEmptyActions } from './content/eventActions.js';
export type { Event, EventInit, ToolProgress } from './content/event.js';
export type { ToolCallDelta } from './content/toolCallDelta.js';
export type { FunctionResponsePart } from './content/responseParts.js';
export { MAX_RESPONSE_PARTS, responsePartsOf, withResponseParts } from './content/responseParts.js';
export type { ModelOutputMapper, ModelView } from './llmFlow/modelOutput.js';
export { MODEL_VIEW_METADATA, isModelOutputMapper } from './llmFlow/modelOutput.js';
export {
  createEvent,
  getFunctionCalls,
  getFunctionResponses,
  isFinalResponse,
  stringifyContent,
} from './content/event.js';
export { newId, newFunctionCallId, CLIENT_FUNCTION_CALL_ID_PREFIX } from './content/ids.js';
export type { LlmResponse, UsageMetadata, GroundingMetadata } from './model/llmResponse.js';
export type { LlmRequest } from './model/llmRequest.js';
export { createLlmRequest, appendInstructions } from './model/llmRequest.js';
export type { Model, GenerateContentOptions } from './model/model.js';
export { isModel } from './model/model.js';
export type {
  Tool,
  RunnableTool,
  StreamingTool,
  RequestProcessor,
  ResumableTool,
  Closable,
  ResponseDeferrer,
  SkipSummarizationResultDisplayer,
  Toolset,
} from './tools/tool.js';
export {
  isRunnableTool,
  isStreamingTool,
  isRequestProcessor,
  isResumableTool,
  isClosable,
  isResponseDeferrer,
  isSkipSummarizationResultDisplayer,
  isToolset,
} from './tools/tool.js';
export type { BeforeToolSelectionCallback, ToolSelectionArgs, ToolSelector } from './llmFlow/toolSelection.js';
export { isToolSelector } from './llmFlow/toolSelection.js';
export type { ReadonlyState, State } from './sessions/state.js';
export { STATE_PREFIX, DeltaState, readonlyState } from './sessions/state.js';
export type {
  Session,
  SessionService,
  SessionKey,
  CreateSessionRequest,
  GetSessionRequest,
  ListSessionsRequest,
} from './sessions/session.js';
export { InMemorySessionService } from './sessions/inMemorySessionService.js';
export type { ArtifactService, ArtifactKey } from './services/artifactService.js';
export { InMemoryArtifactService } from './services/inMemoryArtifactService.js';
export type { MemoryService, MemoryEntry, SearchMemoryRequest, SearchMemoryResponse } from './services/memoryService.js';
export { InMemoryMemoryService } from './services/inMemoryMemoryService.js';
export type { ReadonlyContext } from './context/readonlyContext.js';
export type { CallbackContext } from './context/callbackContext.js';
export type { RequestContext } from './context/requestContext.js';
export type { ToolContext, ProgressReport } from './context/toolContext.js';
export type { RunContext } from './context/runContext.js';
export type { Logger } from './context/logger.js';
export { stderrLogger } from './context/logger.js';
export type { AdkitErrorCode } from './errors.js';
export {
  AdkitError,
  ConfigError,
  SessionError,
  SessionConflictError,
  ArtifactError,
  MemoryError,
  isAdkitError,
  errorMessage,
} from './errors.js';
export { quoted } from './llmFlow/quoted.js';
export type {
  Awaitable,
  ToolResult,
  ToolCallbackArgs,
  BeforeToolCallback,
  AfterToolCallback,
  OnToolErrorCallback,
  ModelCallbackArgs,
  BeforeModelCallback,
  AfterModelCallback,
  OnModelErrorCallback,
  OneOrMany,
} from './runner/callbacks.js';
export type { Plugin } from './runner/plugin.js';
export type { RunConfig } from './runner/runConfig.js';
export type { InvocationContextInit } from './context/invocationContext.js';
export { InvocationContext } from './context/invocationContext.js';
export type { RunCancellation } from './context/runCancellation.js';
export type { BaseAgentOptions } from './agents/baseAgent.js';
export { BaseAgent } from './agents/baseAgent.js';
export type { LlmAgentOptions, InstructionProvider } from './agents/llmAgent.js';
export { LlmAgent } from './agents/llmAgent.js';
export { FINISH_TASK } from './agents/finishTaskTool.js';
export { SINGLE_TURN_NUDGE } from './agents/singleTurnTool.js';
export type { OpenTask, TaskOpening } from './agents/taskEvents.js';
export { openTasks, TASK_METADATA_KEY, taskOpeningOf } from './agents/taskEvents.js';
export type { SubAgentOutcome, SubAgentCallInput } from './agents/subAgentCall.js';
export { callSubAgent, requestText, unansweredResponse } from './agents/subAgentCall.js';
export { SequentialAgent } from './agents/sequentialAgent.js';
export type { LoopAgentOptions } from './agents/loopAgent.js';
export { LoopAgent } from './agents/loopAgent.js';
export type { RunnerOptions, RunAsyncRequest } from './runner/runner.js';
export { Runner } from './runner/runner.js';
export type { InMemoryRunnerOptions } from './runner/inMemoryRunner.js';
export { InMemoryRunner } from './runner/inMemoryRunner.js';
export { isSelfPacking, markSelfPacking, packTool, registerTool, replaceTool } from './tools/packTool.js';
export type { CompiledSchema } from './schema/compileSchema.js';
export { compileSchema } from './schema/compileSchema.js';
export { LazySchema } from './schema/lazySchema.js';
export { checkSchemaSyntax } from './schema/checkSchemaSyntax.js';
export { SUBSCHEMA_KEYWORDS } from './schema/subschemaKeywords.js';
export type { SchemaError } from './schema/schemaErrors.js';
export { formatSchemaErrors, formatSchemaPath, MAX_SCHEMA_PROBLEMS } from './schema/schemaErrors.js';
export type { AnySchema, SchemaInput, SchemaOutput, StandardJsonSchema } from './schema/standardSchema.js';
export { isStandardSchema } from './schema/standardSchema.js';
export type { SchemaCheckOptions, SchemaResult } from './schema/schemaCheck.js';
export { SchemaCheck } from './schema/schemaCheck.js';
export { formatStandardIssues } from './schema/standardIssues.js';
export { REQUEST_CONFIRMATION_FUNCTION } from './llmFlow/buildContents.js';
export type {
  ConfirmationRequest,
  RefusedConfirmationRequest,
  ConfirmationRequestScan,
  ConfirmationScope,
} from './confirmation/confirmationRequests.js';
export type { PendingLongRunningCall } from './confirmation/pendingLongRunningCalls.js';
export { pendingLongRunningCalls } from './confirmation/pendingLongRunningCalls.js';
export {
  CONFIRMATION_FORMAT_VERSION,
  scanConfirmationRequests,
  pendingConfirmationRequests,
  verifiedPendingConfirmationRequests,
} from './confirmation/confirmationRequests.js';
export { MAX_VALUE_DEPTH } from './content/valueDepth.js';
export type {
  AuthScheme,
  ApiKeyScheme,
  HttpScheme,
  OAuth2Scheme,
  OpenIdConnectScheme,
  OAuthFlows,
  AuthCredential,
  AuthCredentialType,
  OAuth2Auth,
  HttpAuth,
  ServiceAccountAuth,
  AuthConfig,
} from './auth/authTypes.js';
export { REQUEST_CREDENTIAL_FUNCTION } from './auth/authTypes.js';
export type { CredentialManager, CredentialScope, CredentialReply, CredentialCallOptions } from './auth/credentialManager.js';
export type { CredentialRequest, RefusedCredentialRequest, CredentialRequestScan } from './auth/credentialRequests.js';
export { CREDENTIAL_FORMAT_VERSION, scanCredentialRequests, pendingCredentialRequestsIn } from './auth/credentialRequests.js';
export { credentialKeyOf } from './auth/credentialKey.js';
export { redactAuthConfig, redactCredential } from './auth/redactAuthConfig.js';
export { readyCredential } from './auth/readyCredential.js';
export { injectSessionState, MissingContextVariableError } from './agents/instructionTemplate.js';
export { SET_MODEL_RESPONSE } from './llmFlow/setModelResponseTool.js';
export { TRANSFER_TO_AGENT } from './agents/agentTransfer.js';
export { ToolTimeoutError } from './llmFlow/deadline.js';
export { toJsonValue } from './content/toJsonValue.js';
