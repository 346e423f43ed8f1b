import { ConfigError, pendingLongRunningCalls, type Content, type Event, type FunctionCall } from '@adkit/flow';
import { taskPauseOf } from './taskCalls.js';
import { savedResumeState } from './savedResumeState.js';

/** An MCP tool call paused while its task runs on the server, past the turn. */
export interface PendingMcpTask {
  /** The paused call (nudge it with `createTaskCheck`). */
  readonly call: FunctionCall;
  /** The agent that made the call. */
  readonly author: string;
  /** The server's task id (`tasks/get` answers for it). */
  readonly taskId: string;
}

/**
 * The MCP calls of a session whose task outlived their turn, oldest first: the long-running calls
 * `pendingLongRunningCalls` lists whose tool saved a task when it paused. Send
 * `createTaskCheck(pending)` when the task may be done (on a timer, or when the server notifies):
 * the call looks again and answers the model, or pauses again while the task still runs.
 */
export function pendingMcpTasks(events: readonly Event[]): PendingMcpTask[] {
  const pending: PendingMcpTask[] = [];
  for (const { call, author } of pendingLongRunningCalls(events)) {
    const pause = taskPauseOf(savedResumeState(events, call.id!));
    if (pause) pending.push({ call, author, taskId: pause.taskId });
  }
  return pending;
}

/** The user message that makes a paused task call look again. Send it as `newMessage` to `runner.runAsync`. */
export function createTaskCheck(pending: PendingMcpTask): Content {
  const call = pending?.call;
  if (!call?.id || typeof call.name !== 'string' || typeof pending.taskId !== 'string')
    throw new ConfigError('createTaskCheck needs an entry of pendingMcpTasks(events).');
  return { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { check: pending.taskId } } }] };
}
