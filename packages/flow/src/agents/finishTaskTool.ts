import type { FunctionDeclaration, JsonSchema } from '../content/content.js';
import { getFunctionCalls, getFunctionResponses, type Event } from '../content/event.js';
import { SchemaCheck, type SchemaResult } from '../schema/schemaCheck.js';
import type { AnySchema } from '../schema/standardSchema.js';
import { appendInstructions } from '../model/llmRequest.js';
import { packTool } from '../tools/packTool.js';
import type { RequestProcessor, RunnableTool } from '../tools/tool.js';

/** The tool a task agent ends its task with (ADK Go's `finish_task`). */
export const FINISH_TASK = 'finish_task';

/** What a valid `finish_task` call answers; the flow reads it as "the task is done". */
export const FINISH_TASK_DONE = 'Task completed.';

/** The key a non-object output schema is wrapped under (parameters must be an object). */
const WRAPPER_KEY = 'result';

/** The output of a task agent without an `outputSchema`: a short summary. */
const DEFAULT_OUTPUT = {
  type: 'object',
  properties: { result: { type: 'string', description: 'A brief summary of what the agent accomplished.' } },
  required: ['result'],
};

const INSTRUCTIONS =
  "Do NOT call 'finish_task' prematurely. Use your available tools to fully complete every aspect of the " +
  'delegated task first. If the task is unclear, ask the user for clarification before proceeding. Once the task ' +
  "is fully complete, call 'finish_task' by itself with no accompanying text output.";

/** `finish_task` of one task agent: its declaration, its check, and how to read a finished task. */
export interface FinishTaskTool extends RunnableTool, RequestProcessor {
  /**
   * The task's output from the arguments of a successful `finish_task` call: the checked value
   * (a Standard Schema's output), unwrapped from `{result}` for a non-object schema.
   */
  output(args: Record<string, unknown>, signal?: AbortSignal): Promise<SchemaResult>;
}

/**
 * Builds `finish_task` for a task agent (ADK Go's `NewFinishTaskTool`): its parameters are the
 * agent's `outputSchema` (TypeBox or Standard JSON Schema, through `SchemaCheck`), a non-object
 * schema wrapped as `{result: …}`, `{result: string}` when there is none. Invalid arguments answer
 * `{error}` in ADK's words, so the model retries; valid ones answer `{result: "Task completed."}`
 * and end the task agent's run (`skipSummarization`): the parent's call is then answered with
 * the output.
 */
export function finishTaskTool(agentName: string, outputSchema: AnySchema | undefined): FinishTaskTool {
  const label = `LlmAgent "${agentName}": outputSchema (finish_task)`;
  const check = outputSchema === undefined ? new SchemaCheck(DEFAULT_OUTPUT, { label }) : new SchemaCheck(outputSchema, { label });
  const wrapped = !isObjectSchema(check.jsonSchema);
  const parameters: JsonSchema = wrapped
    ? { type: 'object', properties: { [WRAPPER_KEY]: check.jsonSchema }, required: [WRAPPER_KEY] }
    : check.jsonSchema;
  const description =
    'Signal that this agent has completed its delegated task. Call this when you have finished your delegated task.' +
    (outputSchema !== undefined ? ' Pass the required output data in the parameters.' : '');
  const declaration: FunctionDeclaration = { name: FINISH_TASK, description, parametersJsonSchema: parameters };

  const output = async (args: Record<string, unknown>, signal?: AbortSignal): Promise<SchemaResult> => {
    if (wrapped && !Object.hasOwn(args, WRAPPER_KEY)) return { ok: false, problems: [`${WRAPPER_KEY}: is required`] };
    return check.validate(wrapped ? args[WRAPPER_KEY] : args, signal);
  };

  const tool: FinishTaskTool = {
    name: FINISH_TASK,
    description,
    declaration: () => declaration,
    output,
    async processRequest(_ctx, request) {
      appendInstructions(request, [INSTRUCTIONS]);
      packTool(request, tool);
    },
    async run(ctx, args) {
      const checked = await output(args, ctx.signal);
      if (!checked.ok)
        return {
          error:
            `Invoking \`${FINISH_TASK}()\` failed due to validation errors:\n${checked.problems.join('\n')}\n` +
            'You could retry calling this tool, but it is IMPORTANT for you to provide all the mandatory parameters with correct types.',
        };
      // The task is over: no further model call in this agent's run.
      ctx.actions.skipSummarization = true;
      return { result: FINISH_TASK_DONE };
    },
  };
  return tool;
}

function isObjectSchema(schema: JsonSchema): boolean {
  const type = (schema as { type?: unknown }).type;
  return type === 'object' || (type === undefined && typeof (schema as { properties?: unknown }).properties === 'object');
}

/**
 * The arguments of the task's successful `finish_task` call among `events` (the task's own, by its
 * agent), or `undefined` while it has none: the first success decides.
 */
export function finishedTaskArgs(events: readonly Event[], agentName: string, branch: string): Record<string, unknown> | undefined {
  const calls = new Map<string, Record<string, unknown>>();
  for (const event of events) {
    if (event.author !== agentName || event.branch !== branch || event.partial) continue;
    for (const call of getFunctionCalls(event)) if (call.name === FINISH_TASK && call.id) calls.set(call.id, call.args ?? {});
    for (const response of getFunctionResponses(event)) {
      if (response.name !== FINISH_TASK || !response.id) continue;
      const result = (response.response as { result?: unknown } | undefined)?.result;
      const args = calls.get(response.id);
      if (result === FINISH_TASK_DONE && args) return args;
    }
  }
  return undefined;
}
