import {
  BaseAgent,
  ConfigError,
  LlmAgent,
  callSubAgent,
  requestText,
  unansweredResponse,
  type FunctionDeclaration,
  type ResumableTool,
  type SchemaCheck,
  type RunnableTool,
  type SkipSummarizationResultDisplayer,
  type SubAgentOutcome,
  type ToolContext,
} from '@adkit/flow';

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
  const input = declaredSchema(agent);
  const declaration: FunctionDeclaration = {
    name: agent.name,
    description: agent.description,
    parametersJsonSchema: input?.jsonSchema ?? REQUEST_PARAMETERS,
  };

  const message = async (ctx: ToolContext, args: Record<string, unknown>): Promise<string> => {
    // The schema declared is the schema checked (a workflow agent's comes from its first sub-agent).
    if (input) {
      const undeclared = undeclaredKey(input.jsonSchema, args);
      // AT-3: every key must be a declared property; the child never sees one the schema does not name.
      if (undeclared !== undefined)
        throw new Error(`argument validation failed for agent ${agent.name}: input arg: '${JSON.stringify(undeclared.slice(0, 100))}' does not exist in schema properties`);
      const checked = await input.validate(args, ctx.signal);
      if (!checked.ok) throw new Error(`argument validation failed for agent ${agent.name}: ${checked.problems.join('; ')}`);
      // The child reads what the schema handed on (a Standard Schema's output: defaults, transforms).
      return JSON.stringify(checked.value);
    }
    return requestText(agent.name, args);
  };

  const result = async (ctx: ToolContext, outcome: SubAgentOutcome): Promise<Record<string, unknown> | undefined> => {
    if (outcome.kind !== 'answer') return unansweredResponse(agent.name, outcome);
    if (options.propagateState) copyChangedState(ctx, outcome.initialState, outcome.state);
    if (!outcome.text) return {};
    const output = llm?.compiledOutputSchema?.check;
    if (!output) return { result: outcome.text };
    let parsed: unknown;
    try {
      parsed = JSON.parse(outcome.text);
    } catch (error) {
      throw new Error(`output validation failed for sub-agent ${agent.name}: the answer is not JSON (${(error as Error).message})`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error(`output validation failed for sub-agent ${agent.name}: the answer is not a JSON object`);
    const checked = await output.validate(parsed, ctx.signal);
    if (!checked.ok) throw new Error(`output validation failed for sub-agent ${agent.name}: ${checked.problems.join('; ')}`);
    const value: unknown = checked.value;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value };
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
      const text = await message(ctx, args);
      return result(ctx, await callSubAgent(agent, ctx, { message: { role: 'user', parts: [{ text }] } }));
    },
    async resume(ctx, response) {
      if (options.skipSummarization) ctx.actions.skipSummarization = true;
      return result(ctx, await callSubAgent(agent, ctx, { answer: response }));
    },
  };
}

/** AT-2: the agent's input schema, or (for a workflow agent) its first sub-agent's, recursively. */
function declaredSchema(agent: BaseAgent): SchemaCheck | undefined {
  if (agent instanceof LlmAgent) return agent.inputSchemaCheck;
  const first = agent.subAgents[0];
  return first ? declaredSchema(first) : undefined;
}

/**
 * The first argument the schema does not declare as a property (AT-3), unless the schema itself
 * allows more (`additionalProperties` other than `false`, `patternProperties`).
 */
function undeclaredKey(schema: Record<string, unknown>, args: Record<string, unknown>): string | undefined {
  const extra = schema.additionalProperties;
  if ((extra !== undefined && extra !== false) || schema.patternProperties !== undefined) return undefined;
  // A union or a reference at the top declares its keys elsewhere: the validation decides.
  if (['anyOf', 'oneOf', 'allOf', '$ref', 'if'].some((keyword) => schema[keyword] !== undefined)) return undefined;
  const properties = typeof schema.properties === 'object' && schema.properties !== null ? (schema.properties as Record<string, unknown>) : {};
  return Object.keys(args).find((key) => !Object.hasOwn(properties, key));
}

/** Copies the keys the child changed (not `temp:` ones) into the parent's state. */
function copyChangedState(ctx: ToolContext, before: Record<string, unknown>, after: Record<string, unknown>): void {
  for (const key of Object.keys(after)) {
    if (key.startsWith('temp:')) continue;
    if (!Object.hasOwn(before, key) || JSON.stringify(before[key]) !== JSON.stringify(after[key])) ctx.state.set(key, after[key]);
  }
}
