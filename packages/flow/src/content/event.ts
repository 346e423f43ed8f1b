import type { Content, FunctionCall, FunctionResponse } from './content.js';
import { createEventActions, type EventActions } from './eventActions.js';
import type { GroundingMetadata, UsageMetadata } from '../model/llmResponse.js';
import { newId } from './ids.js';
import type { ToolCallDelta } from './toolCallDelta.js';

/** Progress of one running tool call, carried by partial events so a UI can draw it. */
export interface ToolProgress {
  functionCallId: string;
  toolName: string;
  /** A chunk a streaming tool produced, or a status line. */
  message?: string;
  /** Completion between 0 and 1, when the tool knows it. */
  fraction?: number;
  /** An event forwarded from inside the call (an agent tool's child), for a UI to show. */
  event?: Event;
}

/**
 * One thing that happened in a session: a user message, a model turn, tool results, an error.
 * Every event is JSON-serializable and self-describing.
 */
export interface Event {
  id: string;
  invocationId: string;
  /** `user`, or the name of the agent that produced the event. */
  author: string;
  branch?: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  content?: Content;
  /** A streaming chunk or progress report; partial events are never persisted. */
  partial?: boolean;
  turnComplete?: boolean;
  finishReason?: string;
  errorCode?: string;
  errorMessage?: string;
  /** Ids of function calls in this event that run long and answer later. */
  longRunningToolIds?: string[];
  actions: EventActions;
  usageMetadata?: UsageMetadata;
  groundingMetadata?: GroundingMetadata;
  modelVersion?: string;
  customMetadata?: Record<string, unknown>;
  toolProgress?: ToolProgress;
  /** On a partial model event: a function call as it forms (see `ToolCallDelta`); never saved. */
  toolCallDelta?: ToolCallDelta;
}

/** The fields a new event needs; the rest get defaults (fresh id, now, empty actions). */
export type EventInit = Partial<Omit<Event, 'actions'>> &
  Pick<Event, 'invocationId' | 'author'> & { actions?: Partial<EventActions> };

/**
 * Creates an event with a fresh id, the current time and both action maps allocated. Fields given
 * as `undefined` are left out, so the event is the same after a JSON round trip.
 */
export function createEvent(init: EventInit): Event {
  // A given id is used as it is: no random id made only to be overwritten. The fields every event
  // has come first, in one shape; the rest in the order given (#24: fewer stores by computed key).
  const event: Record<string, unknown> = {
    id: init.id ?? newId(),
    timestamp: Date.now(),
    invocationId: init.invocationId,
    author: init.author,
  };
  for (const key in init) {
    if (key === 'id' || key === 'invocationId' || key === 'author' || key === 'actions') continue;
    const value = (init as Record<string, unknown>)[key];
    if (value !== undefined) event[key] = value;
  }
  // Left out when not given (by a caller without types), as every other field is.
  if (init.invocationId === undefined) delete event.invocationId;
  if (init.author === undefined) delete event.author;
  event.actions = createEventActions(init.actions);
  return event as unknown as Event;
}

/** The function calls in an event's content, in part order. */
export function getFunctionCalls(event: Pick<Event, 'content'>): FunctionCall[] {
  const calls: FunctionCall[] = [];
  for (const part of event.content?.parts ?? []) if (part.functionCall) calls.push(part.functionCall);
  return calls;
}

/** The function responses in an event's content, in part order. */
export function getFunctionResponses(event: Pick<Event, 'content'>): FunctionResponse[] {
  const responses: FunctionResponse[] = [];
  for (const part of event.content?.parts ?? []) if (part.functionResponse) responses.push(part.functionResponse);
  return responses;
}

/** True when the content ends with a code-execution result (the model will go on). */
function endsWithCodeExecutionResult(event: Event): boolean {
  const parts = event.content?.parts ?? [];
  return parts.length > 0 && parts[parts.length - 1]!.codeExecutionResult !== undefined;
}

/**
 * Whether the event ends the agent's turn (spec TC-14): skipped summarization and long-running
 * calls end it; otherwise only a complete event with no function calls or responses does.
 */
export function isFinalResponse(event: Event): boolean {
  if (event.actions?.skipSummarization || (event.longRunningToolIds?.length ?? 0) > 0) return true;
  return (
    getFunctionCalls(event).length === 0 &&
    getFunctionResponses(event).length === 0 &&
    !event.partial &&
    !endsWithCodeExecutionResult(event)
  );
}

/** The event's text parts joined, thoughts left out; function parts rendered briefly. */
export function stringifyContent(event: Pick<Event, 'content'>): string {
  const pieces: string[] = [];
  for (const part of event.content?.parts ?? []) {
    if (part.text !== undefined && !part.thought) pieces.push(part.text);
    else if (part.functionCall) pieces.push(`[call ${part.functionCall.name}(${JSON.stringify(part.functionCall.args ?? {})})]`);
    else if (part.functionResponse)
      pieces.push(`[response ${part.functionResponse.name}: ${JSON.stringify(part.functionResponse.response ?? null)}]`);
    else if (part.executableCode) pieces.push(part.executableCode.code ?? '');
    else if (part.codeExecutionResult) pieces.push(part.codeExecutionResult.output ?? '');
  }
  return pieces.join('');
}
