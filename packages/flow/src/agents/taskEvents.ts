import type { Event } from '../content/event.js';
import { ownValue } from '../content/ownProperty.js';

/**
 * The `customMetadata` key of the event that opens a task: the task's first user turn (the call's
 * arguments), saved in the task's branch. It names the call, the task agent and the agent that
 * called it, so the runner can route the user's next message to the open task.
 */
export const TASK_METADATA_KEY = 'adkitTask';

/** What the opening event of a task records under `customMetadata.adkitTask`. */
export interface TaskOpening {
  /** The id of the parent's function call the task answers. */
  readonly callId: string;
  /** The task agent. */
  readonly agent: string;
  /** The agent whose model called the task. */
  readonly parent: string;
}

/** An open task as found in a session: its opening, and the branch its events carry. */
export interface OpenTask extends TaskOpening {
  readonly branch: string;
}

/**
 * The branch a task's events carry: the caller's branch, then `<agent>~<call id>`. A `~` never
 * appears in an agent name, so it marks a task segment; any other character of the call id than
 * `[A-Za-z0-9-]` is written `_<hex>_`, so the id adds no segment of its own and two ids never
 * share a branch.
 */
export function taskBranch(parentBranch: string | undefined, agentName: string, callId: string): string {
  const segment = `${agentName}~${callId.replace(/[^A-Za-z0-9-]/g, (c) => `_${c.codePointAt(0)!.toString(16)}_`)}`;
  return parentBranch ? `${parentBranch}.${segment}` : segment;
}

/**
 * The task an event (or a history) belongs to: its branch up to its last task segment, or
 * `undefined` outside every task. A history sees only the events of its own task (FL-1 #7 with
 * task isolation): the parent never sees a task's events, a task never sees its parent's.
 */
export function taskScopeOf(branch: string | undefined): string | undefined {
  if (branch === undefined) return undefined;
  const mark = branch.lastIndexOf('~');
  if (mark < 0) return undefined;
  const end = branch.indexOf('.', mark);
  return end < 0 ? branch : branch.slice(0, end);
}

/** The opening an event records, if it is a task's opening event. */
export function taskOpeningOf(event: Event): TaskOpening | undefined {
  if (event.author !== 'user' || event.branch === undefined) return undefined;
  const value = ownValue(event.customMetadata ?? {}, TASK_METADATA_KEY) as Partial<TaskOpening> | undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const { callId, agent, parent } = value;
  if (typeof callId !== 'string' || typeof agent !== 'string' || typeof parent !== 'string') return undefined;
  return { callId, agent, parent };
}

/**
 * The tasks of a session that were opened and whose call has no answer yet, in the order they
 * opened: the first is the outermost (its parent is not in a task), the last the innermost (the
 * one the user talks with). A task is answered by the function response its parent's flow saves.
 */
export function openTasks(events: readonly Event[]): OpenTask[] {
  const answered = new Set<string>();
  const opened: OpenTask[] = [];
  for (const event of events) {
    for (const part of event.content?.parts ?? []) if (part.functionResponse?.id) answered.add(part.functionResponse.id);
    const opening = taskOpeningOf(event);
    if (opening) opened.push({ ...opening, branch: event.branch! });
  }
  return opened.filter((task) => !answered.has(task.callId));
}
