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
  const scan = newScan();
  extendScan(scan, events, 0);
  return stillOpen(scan);
}

/** What a scan of a history up to some event found: the answered call ids, the opened tasks. */
interface TaskScan {
  readonly answered: Set<string>;
  readonly opened: OpenTask[];
  /** The last event scanned and its index, to check a later history is the same one grown. */
  last?: Event;
  index: number;
}

/** The last scan of each history, under its first event (events keep their identity in a store's cache). */
const scans = new WeakMap<Event, TaskScan>();

/**
 * `openTasks` for the runner, on a session's history as its store returns it, turn after turn:
 * a store keeps its events (append-only, each the same frozen object on every load), so the scan
 * goes on from the event the last one ended at instead of reading every event again (#24: at
 * 5,000 events it was most of a turn). A history that is not the same one grown (another first
 * event, the event elsewhere) is scanned whole.
 */
export function openTasksOfHistory(events: readonly Event[]): OpenTask[] {
  const end = events.length;
  if (end === 0) return [];
  const first = events[0]!;
  let scan = scans.get(first);
  let from = 0;
  if (scan && scan.index < end && events[scan.index] === scan.last) {
    // Taken, not shared: a scan grows in place, so no other history may go on from it.
    scans.delete(first);
    from = scan.index + 1;
  } else scan = newScan();
  extendScan(scan, events, from);
  scan.last = events[end - 1];
  scan.index = end - 1;
  scans.set(first, scan);
  return stillOpen(scan);
}

function newScan(): TaskScan {
  return { answered: new Set(), opened: [], index: -1 };
}

function extendScan(scan: TaskScan, events: readonly Event[], from: number): void {
  for (let i = from; i < events.length; i++) {
    const event = events[i]!;
    for (const part of event.content?.parts ?? []) if (part.functionResponse?.id) scan.answered.add(part.functionResponse.id);
    const opening = taskOpeningOf(event);
    if (opening) scan.opened.push({ ...opening, branch: event.branch! });
  }
}

function stillOpen(scan: TaskScan): OpenTask[] {
  return scan.opened.filter((task) => !scan.answered.has(task.callId));
}
