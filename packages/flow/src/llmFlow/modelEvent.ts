import { getFunctionCalls, type Event } from '../content/event.js';
import { createEventActions, type EventActions } from '../content/eventActions.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmRequest } from '../model/llmRequest.js';
import type { LlmResponse } from '../model/llmResponse.js';

/**
 * The event for one model response (FL-8): the response's fields as they are, in one order. Each
 * written by name, not by a loop over their names: one shape for every model event, and no
 * lookup by a computed key (3% of a turn, #24).
 */
export function modelEvent(
  context: InvocationContext,
  request: LlmRequest,
  response: LlmResponse,
  id: string,
  actions: EventActions | undefined,
): Event {
  // What `createEvent` makes, in its key order, without the walk over an init object.
  const event: Event = {
    id,
    timestamp: Date.now(),
    invocationId: context.invocationId,
    author: context.agentName,
    actions: createEventActions(actions),
  };
  if (context.branch !== undefined) event.branch = context.branch;
  if (response.content !== undefined) event.content = response.content;
  if (response.partial !== undefined) event.partial = response.partial;
  if (response.turnComplete !== undefined) event.turnComplete = response.turnComplete;
  if (response.finishReason !== undefined) event.finishReason = response.finishReason;
  if (response.errorCode !== undefined) event.errorCode = response.errorCode;
  if (response.errorMessage !== undefined) event.errorMessage = response.errorMessage;
  if (response.usageMetadata !== undefined) event.usageMetadata = response.usageMetadata;
  if (response.groundingMetadata !== undefined) event.groundingMetadata = response.groundingMetadata;
  if (response.modelVersion !== undefined) event.modelVersion = response.modelVersion;
  if (response.customMetadata !== undefined) event.customMetadata = response.customMetadata;
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
