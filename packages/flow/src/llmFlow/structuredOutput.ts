import type { ToolResult } from '../runner/callbacks.js';
import type { Content, Part } from '../content/content.js';
import { createEvent, getFunctionResponses, isFinalResponse, type Event } from '../content/event.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import type { CompiledSchema } from '../schema/compileSchema.js';
import { SET_MODEL_RESPONSE } from './setModelResponseTool.js';

/** The compiled check of an agent's output schema. */
export type OutputCheck = CompiledSchema;

/** Saves a final answer to the agent's `outputKey` (parsed and checked with `outputSchema`). */
export function saveOutput(agent: LlmAgent, event: Event, outputCheck: OutputCheck | undefined): void {
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
  const parsed = parseStructured(text, outputCheck);
  if ('value' in parsed) event.actions.stateDelta[agent.outputKey!] = parsed.value;
  else {
    event.errorCode = 'INVALID_OUTPUT';
    event.errorMessage = `Agent "${agent.name}" answered with output that does not match its outputSchema: ${parsed.problem}`;
  }
}

function parseStructured(text: string, check: OutputCheck): { value: unknown } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'the answer is not JSON' };
  }
  if (check.check(value)) return { value };
  return { problem: check.problems(value).join('; ') };
}

/** The final answer given through `set_model_response`, as a model text event (FL-5). */
export function structuredAnswer(
  context: InvocationContext,
  agent: LlmAgent,
  responses: Event,
  outputCheck: OutputCheck | undefined,
): Event | undefined {
  const answer = getFunctionResponses(responses).find(
    (r) => r.name === SET_MODEL_RESPONSE && r.response && !Object.hasOwn(r.response, 'error'),
  );
  if (!answer) return undefined;
  const content: Content = { role: 'model', parts: [{ text: JSON.stringify(answer.response as ToolResult) }] };
  const event = createEvent({ invocationId: context.invocationId, author: agent.name, branch: context.branch, content });
  if (agent.outputKey) saveOutput(agent, event, outputCheck);
  return event;
}
