import type { BaseAgent } from './baseAgent.js';
import type { FunctionDeclaration } from '../content/content.js';
import type { SchemaCheck } from '../schema/schemaCheck.js';
import type { ResponseDeferrer, RunnableTool } from '../tools/tool.js';

/** What a task agent's tool declares when the agent has no `inputSchema`. */
const REQUEST_PARAMETERS = {
  type: 'object',
  properties: { request: { type: 'string', description: 'Detailed instructions or context for the task sub-agent.' } },
  required: ['request'],
};

/** The warning every task tool's description ends with (ADK Go's wording). */
export const TASK_TOOL_NOTE =
  'IMPORTANT: This tool delegates execution to a specialized agent. Do NOT call this tool in parallel with any other tools.';

/** The tool a task sub-agent (`mode: 'task'`) is installed as on its parent. */
export interface TaskAgentTool extends RunnableTool, ResponseDeferrer {
  /** The task agent the calls are delegated to. */
  readonly taskAgent: BaseAgent;
  /** Its input schema's check, when it has one (the arguments are checked before the task opens). */
  readonly input?: SchemaCheck;
}

/**
 * Installs a task agent on its parent as a tool (ADK Go's `NewTaskAgentTool`): named after the
 * agent, declared with its `inputSchema` (else `{request: string}`) and its description plus
 * `TASK_TOOL_NOTE`. The tool itself answers nothing (`defersResponse`): the parent's flow runs
 * the task (`runOpenTasks`) and answers the call when the task agent calls `finish_task`.
 */
export function taskAgentTool(agent: BaseAgent, input: SchemaCheck | undefined): TaskAgentTool {
  const description = `${agent.description}\n${TASK_TOOL_NOTE}`.trim();
  const declaration: FunctionDeclaration = {
    name: agent.name,
    description,
    parametersJsonSchema: input?.jsonSchema ?? REQUEST_PARAMETERS,
  };
  return {
    name: agent.name,
    description,
    taskAgent: agent,
    input,
    declaration: () => declaration,
    defersResponse: () => true,
    // The flow answers the call once the task is done; nothing to do when it is made.
    run: async () => undefined,
  };
}

/** Whether a tool is a task agent's tool. */
export function isTaskAgentTool(tool: unknown): tool is TaskAgentTool {
  return typeof tool === 'object' && tool !== null && 'taskAgent' in tool && typeof (tool as TaskAgentTool).defersResponse === 'function';
}
