import { createEvent, getFunctionCalls, type Event } from '../content/event.js';
import type { EventActions } from '../content/eventActions.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmRequest } from '../model/llmRequest.js';
import type { LlmResponse } from '../model/llmResponse.js';

/** The response's fields an event takes as they are (one list for every event, #24). */
const RESPONSE_FIELDS = [
  'content',
  'partial',
  'turnComplete',
  'finishReason',
  'errorCode',
  'errorMessage',
  'usageMetadata',
  'groundingMetadata',
  'modelVersion',
  'customMetadata',
] as const;

/** The event for one model response (FL-8). */
export function modelEvent(
  context: InvocationContext,
  request: LlmRequest,
  response: LlmResponse,
  id: string,
  actions: EventActions | undefined,
): Event {
  const event = createEvent({ id, invocationId: context.invocationId, author: context.agentName, actions });
  if (context.branch !== undefined) event.branch = context.branch;
  for (const key of RESPONSE_FIELDS)
    if (response[key] !== undefined) (event as unknown as Record<string, unknown>)[key] = response[key];
  // A forming call rides only on partial events, which are never saved.
  if (response.partial && response.toolCallDelta) event.toolCallDelta = response.toolCallDelta;
  if (!response.partial) {
    const longRunning: string[] = [];
    for (const call of getFunctionCalls(event)) {
      const tool = call.id && Object.hasOwn(request.tools, call.name) ? request.tools[call.name] : undefined;
      if (tool?.isLongRunning) longRunning.push(call.id!);
    }
    if (longRunning.length > 0) event.longRunningToolIds = longRunning;
  }
  return event;
}
