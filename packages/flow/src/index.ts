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
} from './content.js';
export { createUserContent, createModelContent } from './content.js';
export type { ToolConfirmation, EventActions } from './eventActions.js';
export { createEventActions, isEmptyActions } from './eventActions.js';
export type { Event, EventInit, ToolProgress } from './event.js';
export {
  createEvent,
  getFunctionCalls,
  getFunctionResponses,
  isFinalResponse,
  stringifyContent,
} from './event.js';
export { newId, newFunctionCallId, CLIENT_FUNCTION_CALL_ID_PREFIX } from './ids.js';
export type { LlmResponse, UsageMetadata, GroundingMetadata } from './llmResponse.js';
export type { LlmRequest } from './llmRequest.js';
export { createLlmRequest, appendInstructions } from './llmRequest.js';
export type { Model, GenerateContentOptions } from './model.js';
export { isModel } from './model.js';
export type {
  Tool,
  RunnableTool,
  StreamingTool,
  RequestProcessor,
  ResponseDeferrer,
  SkipSummarizationResultDisplayer,
  Toolset,
} from './tool.js';
export {
  isRunnableTool,
  isStreamingTool,
  isRequestProcessor,
  isResponseDeferrer,
  isSkipSummarizationResultDisplayer,
  isToolset,
} from './tool.js';
export type { ReadonlyState, State } from './state.js';
export { STATE_PREFIX, DeltaState, readonlyState } from './state.js';
export type {
  Session,
  SessionService,
  SessionKey,
  CreateSessionRequest,
  GetSessionRequest,
  ListSessionsRequest,
} from './session.js';
export type { ScopedStateDelta } from './sessionState.js';
export { splitStateDelta, mergeScopedState, withoutTempState, eventForStorage, applyEventToSession } from './sessionState.js';
export { InMemorySessionService } from './inMemorySessionService.js';
export type { ArtifactService, ArtifactKey } from './artifactService.js';
export { InMemoryArtifactService } from './inMemoryArtifactService.js';
export type { MemoryService, MemoryEntry, SearchMemoryRequest, SearchMemoryResponse } from './memoryService.js';
export { InMemoryMemoryService } from './inMemoryMemoryService.js';
export type { ReadonlyContext } from './readonlyContext.js';
export type { CallbackContext } from './callbackContext.js';
export type { ToolContext, ProgressReport } from './toolContext.js';
export type { AdkitErrorCode } from './errors.js';
export { AdkitError, ConfigError, SessionError, ArtifactError, MemoryError, isAdkitError, errorMessage } from './errors.js';
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
} from './callbacks.js';
export type { Plugin } from './plugin.js';
export type { RunConfig } from './runConfig.js';
export type { InvocationContextInit } from './invocationContext.js';
export { InvocationContext } from './invocationContext.js';
export type { BaseAgentOptions } from './baseAgent.js';
export { BaseAgent } from './baseAgent.js';
export type { LlmAgentOptions, InstructionProvider } from './llmAgent.js';
export { LlmAgent } from './llmAgent.js';
export { SequentialAgent } from './sequentialAgent.js';
export type { LoopAgentOptions } from './loopAgent.js';
export { LoopAgent } from './loopAgent.js';
export type { RunnerOptions, RunAsyncRequest } from './runner.js';
export { Runner } from './runner.js';
export type { InMemoryRunnerOptions } from './inMemoryRunner.js';
export { InMemoryRunner } from './inMemoryRunner.js';
export { packTool } from './packTool.js';
export { REQUEST_CONFIRMATION_FUNCTION } from './buildContents.js';
export { canonicalJson, functionCallDigest } from './canonicalJson.js';
export { injectSessionState, MissingContextVariableError } from './instructionTemplate.js';
export { SET_MODEL_RESPONSE } from './setModelResponseTool.js';
export { TRANSFER_TO_AGENT } from './agentTransfer.js';
export { ToolTimeoutError } from './deadline.js';
export { toJsonValue } from './toJsonValue.js';
