import type { FunctionCall } from '../content/content.js';
import { createEvent, getFunctionCalls, getFunctionResponses, type Event } from '../content/event.js';
import type { InvocationContext } from '../context/invocationContext.js';
import { errorMessage } from '../errors.js';
import { STEP_PROBLEM_CODES } from '../llmFlow/stepProblem.js';
import type { LlmAgent } from './llmAgent.js';
import { FINISH_TASK, finishedTaskArgs, type FinishTaskTool } from './finishTaskTool.js';
import { isTaskAgentTool, type TaskAgentTool } from './taskAgentTool.js';
import { TASK_METADATA_KEY, taskBranch, taskOpeningOf, type TaskOpening } from './taskEvents.js';

/**
 * How the open tasks ended: `answered` (the model may go on), or `waiting` (the turn ends: a task
 * waits for the user, or another call made beside the tasks still waits for its answer).
 */
export type OpenTasksOutcome = 'answered' | 'waiting';

/** Whether each agent's tool list holds a task agent tool, found once per list (it is fixed when the agent is built). */
const taskToolLists = new WeakMap<readonly unknown[], boolean>();

/** Whether the agent has a task agent among its tools; without one, `runOpenTasks` has nothing to run. */
export function hasTaskTools(agent: LlmAgent): boolean {
  let has = taskToolLists.get(agent.tools);
  if (has === undefined) taskToolLists.set(agent.tools, (has = agent.tools.some(isTaskAgentTool)));
  return has;
}

/**
 * Runs the agent's task calls that have no answer yet (ADK Go's chat wrapper), oldest first, before
 * its model is called again. Each runs its task agent on the same session, in the task's own
 * branch (`taskBranch`), so the task sees only its own events and the parent none of them:
 * - the first time, the call's arguments are checked against the task agent's `inputSchema` (a
 *   failure answers the call with `{error}` for the parent's model) and saved as the task's first
 *   user turn (`customMetadata.adkitTask` marks it, so the runner routes the user's replies here);
 * - when the task agent's `finish_task` succeeds, the call is answered with the output: a
 *   user-authored function response in the parent's branch (an object output as it is, another
 *   value as `{output}`; with `outputKey` also saved in state);
 * - when it ends its run otherwise (a question for the user, a confirmation, a long-running tool,
 *   a credential request), the task stays open and the parent's turn ends (`'waiting'`): the
 *   user's next message goes to the task (the runner stamps it with the task's branch);
 * - when it fails (an error event), the call is answered with `{error}`, so the parent's model can
 *   tell the user or try again, and nobody is left talking to a broken task.
 */
export async function* runOpenTasks(agent: LlmAgent, context: InvocationContext): AsyncGenerator<Event, OpenTasksOutcome, undefined> {
  const taskTools = new Map<string, TaskAgentTool>();
  for (const tool of agent.tools) if (isTaskAgentTool(tool)) taskTools.set(tool.name, tool);
  if (taskTools.size === 0) return 'answered';
  const calls = unansweredTaskCalls(context.session.events, agent.name, context.branch, taskTools);
  for (const call of calls) {
    const outcome = yield* runTask(agent, taskTools.get(call.name)!, call, context);
    if (outcome === 'waiting' || context.aborted || context.endInvocation) return 'waiting';
  }
  // The model is not called while a call made beside a task (a long-running one) has no answer.
  return calls.length > 0 && besideUnanswered(context.session.events, agent.name, calls) ? 'waiting' : 'answered';
}

/** The agent's calls of task tools, in its branch, that nothing answered yet, in call order. */
function unansweredTaskCalls(
  events: readonly Event[],
  author: string,
  branch: string | undefined,
  taskTools: ReadonlyMap<string, TaskAgentTool>,
): FunctionCall[] {
  const calls: FunctionCall[] = [];
  const answered = new Set<string>();
  for (const event of events) {
    if (event.partial) continue;
    for (const response of getFunctionResponses(event)) if (response.id) answered.add(response.id);
    if (event.author !== author || event.branch !== branch) continue;
    for (const call of getFunctionCalls(event)) if (call.id && taskTools.has(call.name)) calls.push(call);
  }
  return calls.filter((call) => !answered.has(call.id!));
}

/** Whether a call made in the same model event as one of `tasks` still has no answer. */
function besideUnanswered(events: readonly Event[], author: string, tasks: readonly FunctionCall[]): boolean {
  const ids = new Set(tasks.map((call) => call.id));
  const answered = new Set<string>();
  for (const event of events) for (const response of getFunctionResponses(event)) if (response.id) answered.add(response.id);
  return events.some(
    (event) =>
      event.author === author &&
      getFunctionCalls(event).some((call) => ids.has(call.id)) &&
      getFunctionCalls(event).some((call) => call.id && !answered.has(call.id)),
  );
}

async function* runTask(
  parent: LlmAgent,
  tool: TaskAgentTool,
  call: FunctionCall,
  context: InvocationContext,
): AsyncGenerator<Event, OpenTasksOutcome, undefined> {
  const taskAgent = tool.taskAgent as LlmAgent;
  const branch = taskBranch(context.branch, taskAgent.name, call.id!);
  const answer = (response: Record<string, unknown>, stateDelta?: Record<string, unknown>) =>
    createEvent({
      invocationId: context.invocationId,
      author: 'user',
      branch: context.branch,
      content: { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response } }] },
      actions: stateDelta ? { stateDelta } : undefined,
    });

  const opened = context.session.events.some((event) => event.branch === branch && taskOpeningOf(event)?.callId === call.id);
  if (!opened) {
    let text: string;
    try {
      text = await firstTurn(tool, call.args ?? {}, context.signal);
    } catch (error) {
      yield answer({ error: errorMessage(error) });
      return 'answered';
    }
    const opening: TaskOpening = { callId: call.id!, agent: taskAgent.name, parent: parent.name };
    yield createEvent({
      invocationId: context.invocationId,
      author: 'user',
      branch,
      content: { role: 'user', parts: [{ text }] },
      customMetadata: { [TASK_METADATA_KEY]: opening },
    });
  }

  // A task that finished before a crash (its success saved, the answer not) is answered, not rerun.
  let finished = finishedTaskArgs(context.session.events, taskAgent.name, branch);
  let failure: Event | undefined;
  if (!finished) {
    for await (const event of taskAgent.runAsync(context.withAgent(taskAgent, branch))) {
      yield event;
      if (context.aborted) return 'waiting';
      if (!event.partial && (event.errorCode || event.errorMessage) && !STEP_PROBLEM_CODES.has(event.errorCode ?? '')) failure = event;
    }
    if (context.endInvocation) return 'waiting';
    finished = finishedTaskArgs(context.session.events, taskAgent.name, branch);
  }
  if (!finished) {
    if (!failure) return 'waiting';
    yield answer({
      error: `The task agent "${taskAgent.name}" failed (code: "${failure.errorCode ?? ''}", message: "${failure.errorMessage ?? ''}").`,
    });
    return 'answered';
  }
  const finish = taskAgent.tools.find((candidate) => candidate.name === FINISH_TASK) as FinishTaskTool | undefined;
  const checked = finish ? await finish.output(finished, context.signal) : { ok: true as const, value: finished };
  if (!checked.ok) {
    yield answer({ error: `The task agent "${taskAgent.name}" finished with an output that does not match its outputSchema: ${checked.problems.join('; ')}` });
    return 'answered';
  }
  const value = checked.value;
  const response = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { output: value };
  yield answer(response, taskAgent.outputKey ? { [taskAgent.outputKey]: value } : undefined);
  return 'answered';
}

/**
 * The task's first user turn: the checked arguments as JSON with an `inputSchema` (a Standard
 * Schema's output: defaults, transforms), else the `request` text.
 */
async function firstTurn(tool: TaskAgentTool, args: Record<string, unknown>, signal: AbortSignal): Promise<string> {
  const input = tool.input;
  if (!input) {
    if (typeof args.request !== 'string') throw new Error(`missing required argument 'request' (a string) for task agent ${tool.name}`);
    return args.request;
  }
  const checked = await input.validate(args, signal);
  if (!checked.ok) throw new Error(`argument validation failed for task agent ${tool.name}: ${checked.problems.join('; ')}`);
  return JSON.stringify(checked.value);
}
