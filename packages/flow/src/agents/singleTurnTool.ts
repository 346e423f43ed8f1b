import type { BaseAgent } from './baseAgent.js';
import type { FunctionDeclaration } from '../content/content.js';
import type { ToolContext } from '../context/toolContext.js';
import type { ResumableTool, RunnableTool } from '../tools/tool.js';
import { callSubAgent, requestText, unansweredResponse, type SubAgentOutcome } from './subAgentCall.js';

/** The schema of a single-turn sub-agent's one argument. */
const REQUEST_PARAMETERS = {
  type: 'object',
  properties: { request: { type: 'string', description: 'What the agent should do, in full: it sees nothing else.' } },
  required: ['request'],
};

/**
 * The tool a single-turn sub-agent (`mode: 'single_turn'`) is installed as on its parent (ADK
 * Go's task tools): `{request}` in, the sub-agent's answer out as `{result}`, run isolated with
 * `callSubAgent`, so a confirmation or long-running tool inside pauses the parent's run too.
 */
export function singleTurnTool(agent: BaseAgent): RunnableTool & ResumableTool {
  const declaration: FunctionDeclaration = { name: agent.name, description: agent.description, parametersJsonSchema: REQUEST_PARAMETERS };
  const answer = (outcome: SubAgentOutcome): Record<string, unknown> | undefined => {
    if (outcome.kind !== 'answer') return unansweredResponse(agent.name, outcome);
    return outcome.text ? { result: outcome.text } : {};
  };
  return {
    name: agent.name,
    description: agent.description,
    declaration: () => declaration,
    async run(ctx: ToolContext, args: Record<string, unknown>) {
      if (ctx.resumeState !== undefined && ctx.toolConfirmation) return answer(await callSubAgent(agent, ctx, {}));
      const text = requestText(agent.name, args);
      return answer(await callSubAgent(agent, ctx, { message: { role: 'user', parts: [{ text }] } }));
    },
    async resume(ctx: ToolContext, response: Record<string, unknown>) {
      return answer(await callSubAgent(agent, ctx, { answer: response }));
    },
  };
}
