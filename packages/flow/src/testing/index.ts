// The public API of @adkit/flow/testing: real parts for tests, never mocks of the flow.
export type { ScriptStep, RecordedRequest } from './scriptedModel.js';
export { ScriptedModel, textResponse, functionCallResponse } from './scriptedModel.js';
export type { TestToolContextOptions } from './createToolContext.js';
export { createToolContext } from './createToolContext.js';
