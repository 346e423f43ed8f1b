import {
  BaseAgent,
  ConfigError,
  LlmAgent,
  callSubAgent,
  requestText,
  unansweredResponse,
  type FunctionDeclaration,
  type JsonSchema,
  type ResumableTool,
  type RunnableTool,
  type SkipSummarizationResultDisplayer,
  type SubAgentOutcome,
  type ToolContext,
} from '@adkit/flow';
import { compileSchema, type CompiledSchema } from '@adkit/tool';
import type { TSchema } from 'typebox';

/** Options of `agentTool`. */
export interface AgentToolOptions {
  /**
   * End the parent's turn on this tool's response and show the child's answer as text, instead of
   * letting the parent model rephrase it (AT-7, FL-17, FL-18).
   */
  skipSummarization?: boolean;
  /** Copy the state keys the child changed back into the parent's state (off by default, as in ADK Go). */
  propagateState?: boolean;
  /** Per-call time limit in ms: the child run is cancelled and the parent model gets an error. */
  timeoutMs?: number;
}

const REQUEST_PARAMETERS = { type: 'object', properties: { request: { type: 'string' } }, required: ['request'] };

/** An agent as a tool of another agent: the parent keeps control, the child answers in isolation. */
export type AgentTool = RunnableTool & ResumableTool & SkipSummarizationResultDisplayer & { readonly agent: BaseAgent };

/**
 * Wraps an agent as a tool (spec AT-1 … AT-7). Its name and description are the agent's; its
 * parameters are the agent's `inputSchema` (validated, and handed to the child as JSON text), or
 * `{request: string}`. Each call runs the child on a fresh session seeded with the parent's state
 * (`callSubAgent` from `@adkit/flow`): a second call never sees the first call's history, and none
 * of the child's history reaches the parent's model. The result is the child's last answer:
 * `{result: text}`, the parsed and validated object with an `outputSchema`, or `{}` with no text.
 * Failures, timeouts and aborts become errors for the parent model. A tool inside the child that
 * asks for confirmation, or answers later, pauses the parent's run; the parent's resume continues
 * the child where it stopped.
 */
export function agentTool(agent: BaseAgent, options: AgentToolOptions = {}): AgentTool {
  if (!(agent instanceof BaseAgent))
    throw new ConfigError(`agentTool: expected an agent (LlmAgent, SequentialAgent, …), got ${agent === null ? 'null' : typeof agent}.`);
  const llm = agent instanceof LlmAgent ? agent : undefined;
  let input: CompiledSchema | undefined;
  let output: CompiledSchema | undefined;
  const declaration: FunctionDeclaration = {
    name: agent.name,
    description: agent.description,
    parametersJsonSchema: (declaredSchema(agent) as JsonSchema | undefined) ?? REQUEST_PARAMETERS,
  };

  const message = async (args: Record<string, unknown>): Promise<string> => {
    if (llm?.inputSchema) {
      input ??= await compileSchema(llm.inputSchema);
      const problems = input.problems(args);
      if (problems.length > 0) throw new Error(`argument validation failed for agent ${agent.name}: ${problems.join('; ')}`);
      return JSON.stringify(args);
    }
    return requestText(agent.name, args);
  };

  const result = async (ctx: ToolContext, outcome: SubAgentOutcome): Promise<Record<string, unknown> | undefined> => {
    if (outcome.kind !== 'answer') return unansweredResponse(agent.name, outcome);
    if (options.propagateState) copyChangedState(ctx, outcome.initialState, outcome.state);
    if (!outcome.text) return {};
    if (!llm?.outputSchema) return { result: outcome.text };
    output ??= await compileSchema(llm.outputSchema);
    let parsed: unknown;
    try {
      parsed = JSON.parse(outcome.text);
    } catch (error) {
      throw new Error(`output validation failed for sub-agent ${agent.name}: the answer is not JSON (${(error as Error).message})`);
    }
    const problems = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? output.problems(parsed) : ['the answer is not a JSON object'];
    if (problems.length > 0) throw new Error(`output validation failed for sub-agent ${agent.name}: ${problems.join('; ')}`);
    return parsed as Record<string, unknown>;
  };

  return {
    name: agent.name,
    description: agent.description,
    agent,
    timeoutMs: options.timeoutMs,
    declaration: () => declaration,
    displayResultOnSkipSummarization: () => true,
    async run(ctx, args) {
      // AT-3: set first, so it applies even when the run fails.
      if (options.skipSummarization) ctx.actions.skipSummarization = true;
      if (ctx.resumeState !== undefined && ctx.toolConfirmation) return result(ctx, await callSubAgent(agent, ctx, {}));
      const text = await message(args);
      return result(ctx, await callSubAgent(agent, ctx, { message: { role: 'user', parts: [{ text }] } }));
    },
    async resume(ctx, response) {
      if (options.skipSummarization) ctx.actions.skipSummarization = true;
      return result(ctx, await callSubAgent(agent, ctx, { answer: response }));
    },
  };
}

/** AT-2: the agent's input schema, or (for a workflow agent) its first sub-agent's, recursively. */
function declaredSchema(agent: BaseAgent): TSchema | undefined {
  if (agent instanceof LlmAgent) return agent.inputSchema;
  const first = agent.subAgents[0];
  return first ? declaredSchema(first) : undefined;
}

/** Copies the keys the child changed (not `temp:` ones) into the parent's state. */
function copyChangedState(ctx: ToolContext, before: Record<string, unknown>, after: Record<string, unknown>): void {
  for (const key of Object.keys(after)) {
    if (key.startsWith('temp:')) continue;
    if (!Object.hasOwn(before, key) || JSON.stringify(before[key]) !== JSON.stringify(after[key])) ctx.state.set(key, after[key]);
  }
}
