import type { ToolResult } from '../runner/callbacks.js';
import type { Content, FunctionResponse, Part } from '../content/content.js';
import { createEvent, getFunctionResponses, isFinalResponse, type Event } from '../content/event.js';
import { errorMessage } from '../errors.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import type { SchemaCheck } from '../schema/schemaCheck.js';
import { SET_MODEL_RESPONSE } from './setModelResponseTool.js';

/** The ready check of an agent's output schema. */
export type OutputCheck = SchemaCheck;

/**
 * Saves a final answer to the agent's `outputKey`: the text, or with `outputSchema` the parsed
 * JSON checked against it (a Standard Schema's output value, transforms applied). An async check
 * is given up on when the run's signal aborts.
 */
export async function saveOutput(agent: LlmAgent, event: Event, outputCheck: OutputCheck | undefined, signal?: AbortSignal): Promise<void> {
  if (!isFinalResponse(event) || event.errorCode || getFunctionResponses(event).length > 0) return;
  const text = (event.content?.parts ?? [])
    .filter((part: Part) => part.text !== undefined && !part.thought)
    .map((part) => part.text)
    .join('');
  if (!text) return;
  if (!outputCheck) {
    event.actions.stateDelta[agent.outputKey!] = text;
    return;
  }
  const parsed = await parseStructured(text, outputCheck, signal);
  if ('value' in parsed) event.actions.stateDelta[agent.outputKey!] = parsed.value;
  else {
    event.errorCode = 'INVALID_OUTPUT';
    event.errorMessage = `Agent "${agent.name}" answered with output that does not match its outputSchema: ${parsed.problem}`;
  }
}

async function parseStructured(text: string, check: OutputCheck, signal: AbortSignal | undefined): Promise<{ value: unknown } | { problem: string }> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'the answer is not JSON' };
  }
  let result;
  try {
    result = await check.validate(value, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    return { problem: errorMessage(error) };
  }
  return result.ok ? { value: result.value } : { problem: result.problems.join('; ') };
}

/** The final answer given through `set_model_response` among a step's responses, if one was given. */
export function structuredAnswerOf(responses: Event): FunctionResponse | undefined {
  return getFunctionResponses(responses).find((r) => r.name === SET_MODEL_RESPONSE && r.response && !Object.hasOwn(r.response, 'error'));
}

/** That answer (`structuredAnswerOf`) as a model text event (FL-5). */
export async function structuredAnswer(
  context: InvocationContext,
  agent: LlmAgent,
  answer: FunctionResponse,
  outputCheck: OutputCheck | undefined,
): Promise<Event> {
  const content: Content = { role: 'model', parts: [{ text: JSON.stringify(answer.response as ToolResult) }] };
  const event = createEvent({ invocationId: context.invocationId, author: agent.name, branch: context.branch, content });
  if (agent.outputKey) await saveOutput(agent, event, outputCheck, context.signal);
  return event;
}
