// The public API of @adkit/agent-tool. Every line here is an API decision.
export type { AgentTool, AgentToolOptions } from './agentTool.js';
export { agentTool } from './agentTool.js';
