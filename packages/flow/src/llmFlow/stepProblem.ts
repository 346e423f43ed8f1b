import { createEvent, type Event } from '../content/event.js';
import type { InvocationContext } from '../context/invocationContext.js';

/**
 * Something the flow left out of a step so the rest could run (a toolset that failed to list, a
 * tool whose schema cannot be sent). `code` is the error event's `errorCode`.
 */
export interface StepProblem {
  readonly code: 'TOOLSET_UNAVAILABLE' | 'TOOL_NAME_CLASH' | 'TOOL_REFUSED';
  readonly message: string;
}

/** The codes of the error events that report a part left out while the step itself went on. */
export const STEP_PROBLEM_CODES: ReadonlySet<string> = new Set<StepProblem['code']>(['TOOLSET_UNAVAILABLE', 'TOOL_NAME_CLASH', 'TOOL_REFUSED']);

/** Warns through the run's logger and returns the error event the client sees. */
export function reportProblem(context: InvocationContext, problem: StepProblem): Event {
  context.logger.warn(`adkit: agent "${context.agentName}": ${problem.message}`);
  return createEvent({
    invocationId: context.invocationId,
    author: context.agentName,
    branch: context.branch,
    errorCode: problem.code,
    errorMessage: problem.message,
  });
}
