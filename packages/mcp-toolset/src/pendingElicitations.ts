import { ConfigError, errorMessage, pendingLongRunningCalls, type Content, type Event, type FunctionCall } from '@adkit/flow';
import { checkElicitationAnswer, type McpElicitationAnswer, type McpElicitationRequest } from './elicitation.js';
import { pauseOf } from './elicitingCalls.js';
import { savedResumeState } from './savedResumeState.js';

/** An MCP tool call paused until the user answers the server's request for input. */
export interface PendingElicitation {
  /** The paused call (answer it with `createElicitationReply`). */
  readonly call: FunctionCall;
  /** The agent that made the call. */
  readonly author: string;
  /** What the server asks: a form (message and requested schema) or a URL to open. */
  readonly request: McpElicitationRequest;
}

/**
 * The MCP calls of a session that wait for the user's answer to a server's request for input,
 * oldest first: the long-running calls `pendingLongRunningCalls` lists whose tool saved such a
 * request when it paused. Render each (`request.message`, then the form of
 * `request.requestedSchema`, or a link to `request.url`) and answer with `createElicitationReply`.
 */
export function pendingElicitations(events: readonly Event[]): PendingElicitation[] {
  const pending: PendingElicitation[] = [];
  for (const { call, author } of pendingLongRunningCalls(events)) {
    const pause = pauseOf(savedResumeState(events, call.id!));
    if (pause) pending.push({ call, author, request: pause.request });
  }
  return pending;
}

/**
 * The user message answering a pending request for input: a function response for the paused
 * call, carrying `{action: "accept", content}` (checked against the requested schema),
 * `{action: "decline"}` or `{action: "cancel"}`. Send it as `newMessage` to `runner.runAsync`.
 * Throws a `ConfigError` naming what is wrong, so the app can ask the user again.
 */
export async function createElicitationReply(pending: PendingElicitation, answer: McpElicitationAnswer): Promise<Content> {
  const { call, request } = pending ?? {};
  if (!call?.id || typeof call.name !== 'string' || !request)
    throw new ConfigError('createElicitationReply needs an entry of pendingElicitations(events).');
  let checked: McpElicitationAnswer;
  try {
    checked = await checkElicitationAnswer(request, answer);
  } catch (error) {
    throw new ConfigError(`createElicitationReply for tool "${call.name}": ${errorMessage(error)}`, { cause: error });
  }
  return { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { ...checked } } }] };
}
