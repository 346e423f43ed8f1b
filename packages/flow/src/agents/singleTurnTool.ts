import type { BaseAgent } from './baseAgent.js';
import type { FunctionDeclaration } from '../content/content.js';
import type { ToolContext } from '../context/toolContext.js';
import type { SchemaCheck } from '../schema/schemaCheck.js';
import type { ResumableTool, RunnableTool } from '../tools/tool.js';
import { callSubAgent, requestText, unansweredResponse, type SubAgentOutcome } from './subAgentCall.js';

/** The schema of a single-turn sub-agent's one argument, when it has no `inputSchema`. */
const REQUEST_PARAMETERS = {
  type: 'object',
  properties: { request: { type: 'string', description: 'What the agent should do, in full: it sees nothing else.' } },
  required: ['request'],
};

/**
 * Told to a single-turn sub-agent after its request (ADK Go's `SingleTurnNudge`): nobody answers
 * a question it asks.
 */
export const SINGLE_TURN_NUDGE =
  'Important: You will not receive any user replies or clarifications. Complete the task using only the information provided above.';

/**
 * The tool a single-turn sub-agent (`mode: 'single_turn'`) is installed as on its parent (ADK
 * Go's `SingleTurnTool`): its parameters are the agent's `inputSchema` (checked; the sub-agent
 * gets the checked value as JSON) or `{request}` (it gets the text), followed by
 * `SINGLE_TURN_NUDGE`; the sub-agent's answer comes back as `{result}`. It runs isolated with
 * `callSubAgent`, so a confirmation or long-running tool inside pauses the parent's run too.
 */
export function singleTurnTool(agent: BaseAgent, input?: SchemaCheck): RunnableTool & ResumableTool {
  const declaration: FunctionDeclaration = {
    name: agent.name,
    description: agent.description,
    parametersJsonSchema: input?.jsonSchema ?? REQUEST_PARAMETERS,
  };
  const answer = (outcome: SubAgentOutcome): Record<string, unknown> | undefined => {
    if (outcome.kind !== 'answer') return unansweredResponse(agent.name, outcome);
    return outcome.text ? { result: outcome.text } : {};
  };
  const requestOf = async (ctx: ToolContext, args: Record<string, unknown>): Promise<string> => {
    if (!input) return requestText(agent.name, args);
    const checked = await input.validate(args, ctx.signal);
    if (!checked.ok) throw new Error(`argument validation failed for agent ${agent.name}: ${checked.problems.join('; ')}`);
    return JSON.stringify(checked.value);
  };
  return {
    name: agent.name,
    description: agent.description,
    declaration: () => declaration,
    async run(ctx: ToolContext, args: Record<string, unknown>) {
      if (ctx.resumeState !== undefined && ctx.toolConfirmation) return answer(await callSubAgent(agent, ctx, {}));
      const text = await requestOf(ctx, args);
      return answer(await callSubAgent(agent, ctx, { message: { role: 'user', parts: [{ text }, { text: SINGLE_TURN_NUDGE }] } }));
    },
    async resume(ctx: ToolContext, response: Record<string, unknown>) {
      return answer(await callSubAgent(agent, ctx, { answer: response }));
    },
  };
}
