// The public API of @adkit/tool. Every line here is an API decision.
export type { Tool, RunnableTool, StreamingTool, RequestProcessor, Toolset } from '@adkit/flow';
export { isRunnableTool, isStreamingTool, isRequestProcessor, packTool, registerTool } from '@adkit/flow';
export type { ToolOptions } from './toolOptions.js';
export { FUNCTION_NAME_PATTERN, assertToolName, assertToolOptions } from './toolOptions.js';
export type { FunctionName } from './toFunctionName.js';
export { toFunctionName } from './toFunctionName.js';
export { LONG_RUNNING_NOTE, withLongRunningNote } from './longRunningNote.js';
export { BaseTool } from './baseTool.js';
export type { BaseToolsetOptions } from './baseToolset.js';
export { BaseToolset } from './baseToolset.js';
export type { ToolPredicate } from './filterToolset.js';
export { filterToolset, allowedTools } from './filterToolset.js';
export type { ToolOverrides, WrapToolOptions } from './wrapTool.js';
export { wrapTool } from './wrapTool.js';
export type { WrapToolsetOptions } from './wrapToolset.js';
export { wrapToolset } from './wrapToolset.js';
export { prefixTool } from './prefixTool.js';
export { prefixToolset } from './prefixToolset.js';
export type { ToolErrorCode, ToolErrorOptions } from './errors.js';
export { ToolError, isToolError, invalidArgumentsError } from './errors.js';
export type { ConfirmationGateOptions } from './confirmationGate.js';
export { confirmationGate, confirmationHint } from './confirmationGate.js';
// Schema helpers live in @adkit/flow (its output schema uses them too); tool authors take them here.
export type { CompiledSchema, SchemaError } from '@adkit/flow';
export {
  compileSchema,
  LazySchema,
  checkSchemaSyntax,
  formatSchemaErrors,
  formatSchemaPath,
  MAX_SCHEMA_PROBLEMS,
  SUBSCHEMA_KEYWORDS,
} from '@adkit/flow';
export { isObjectSchema, describeFields } from './objectSchema.js';
export { exitLoop, exitLoopTool } from './exitLoopTool.js';
export type { FewShotExample } from './exampleTool.js';
export { exampleTool } from './exampleTool.js';
