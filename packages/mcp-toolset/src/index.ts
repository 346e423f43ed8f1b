// The public API of @adkit/mcp-toolset. Every line here is an API decision.
export type { McpToolsetOptions } from './mcpToolset.js';
export { McpToolset, mcpToolset } from './mcpToolset.js';
export type {
  McpServerConfig,
  McpStdioServer,
  McpHttpServer,
  McpTransportServer,
  McpHeaders,
  McpHeadersProvider,
} from './mcpServerConfig.js';
export type { McpAuthOptions } from './mcpAuth.js';
export type { McpResourcesOptions } from './mcpResources.js';
export { McpResources, mcpResources } from './mcpResources.js';
export type { McpPromptsOptions, McpPromptRequestOptions, McpPromptInfo, McpPrompt } from './mcpPrompts.js';
export { McpPrompts, mcpPrompts } from './mcpPrompts.js';
export type { McpConnectionOptions } from './toolsetSettings.js';
export type { McpRequireConfirmation } from './mcpTool.js';
export { McpTool } from './mcpTool.js';
export type { McpCallMeta, ToolTraceContext } from './callMeta.js';
export { TOOL_TRACE_CONTEXT } from './callMeta.js';
export type { McpElicitationRequest, McpElicitationAnswer, McpElicitationHandler, McpElicitationOptions } from './elicitation.js';
export type { PendingElicitation } from './pendingElicitations.js';
export { pendingElicitations, createElicitationReply } from './pendingElicitations.js';
export type { McpTasksOptions } from './taskCalls.js';
export type { PendingMcpTask } from './pendingMcpTasks.js';
export { pendingMcpTasks, createTaskCheck } from './pendingMcpTasks.js';
export type { McpToolChange, McpToolField, McpPinToolsOptions } from './toolPins.js';
export type { InlineMediaRule, InlineMediaInfo } from './inlineMedia.js';
export { defaultInlineMedia } from './inlineMedia.js';
