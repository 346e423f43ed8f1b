import type { ToolCallbacks } from './callTool.js';
import type { FunctionCall } from '../content/content.js';
import { createEvent, type Event } from '../content/event.js';
import type { ToolConfirmation } from '../content/eventActions.js';
import { executeFunctionCalls } from './executeFunctionCalls.js';
import { withCredentialRequests } from './credentialRequestEvent.js';
import { confirmationEvent } from './confirmationEvent.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import type { Tool } from '../tools/tool.js';
import { startedEvent, timeLimitOf } from './pausedCalls.js';
import { leaseRunningCalls } from './runningCalls.js';
import { markResumedResult } from './resumedResults.js';

/** The calls one resume processor runs again, with what each gets. */
export interface ResumedCalls {
  calls: readonly FunctionCall[];
  /** The tools the calls dispatch to, by name. */
  tools: ReadonlyMap<string, Tool>;
  callbacks: ToolCallbacks;
  confirmations?: Readonly<Record<string, ToolConfirmation>>;
  resumeStates: Readonly<Record<string, unknown>>;
  resumeResponses?: Readonly<Record<string, Record<string, unknown>>>;
  /** Calls answered with an error without running (interrupted, a failed consent). */
  refusals: ReadonlyMap<string, string>;
}

/**
 * The one way every resume path (an approval, a consent, a paused call's answer) runs calls
 * again: a started marker is saved first (at most once), the process holds a lease on the calls
 * while they run (`runningCalls`), and a resumed call that pauses again makes the very pause a
 * first call would — a confirmation request (HC-4), a credential request (AU-3), or its
 * long-running marker (FL-15). Returns whether any call paused: the step then ends without the
 * model, and the client's next answer resumes the call again. What the calls produced is marked
 * (`resumedResults`): saved even when a new message was saved meanwhile.
 */
export async function* runResumedCalls(
  context: InvocationContext,
  agent: LlmAgent,
  batch: ResumedCalls,
): AsyncGenerator<Event, boolean, undefined> {
  const { calls, tools, refusals } = batch;
  const starting = calls.filter((call) => !refusals.has(call.id!));
  const timeLimit = timeLimitOf(starting, tools, agent.toolTimeoutMs);
  const marker = starting.length > 0 ? startedEvent(context, starting.map((call) => call.id!), timeLimit) : undefined;
  // Held until the answers are saved (or the run ends without them): see `runningCalls`.
  const lease = marker && leaseRunningCalls(marker.id, starting.map((call) => call.id!));
  let paused = false;
  try {
    if (marker) yield marker;
    if (context.aborted) return false;
    const available: Record<string, Tool> = {};
    for (const call of calls) {
      const tool = tools.get(call.name);
      if (tool) available[call.name] = tool;
    }
    let responses: Event | undefined;
    for await (const event of withCredentialRequests(
      context,
      executeFunctionCalls({
        invocation: context,
        calls,
        tools: available,
        callbacks: batch.callbacks,
        confirmations: batch.confirmations,
        resumeStates: batch.resumeStates,
        resumeResponses: batch.resumeResponses,
        refusals,
        maxConcurrency: agent.maxToolConcurrency,
        toolTimeoutMs: agent.toolTimeoutMs,
      }),
    )) {
      if (!event.partial) {
        responses ??= event;
        // A call paused on its own, or the credential request that follows the responses.
        if ((event.longRunningToolIds?.length ?? 0) > 0) paused = true;
        // The calls ran: a new message saved meanwhile must not lose this (`resumedResults`).
        markResumedResult(event);
      }
      yield event;
    }
    if (!responses || context.aborted) return paused;
    // A resumed call that asks for (another) approval gets a request, as on its first run.
    const asked = await confirmationEvent(context, callsEvent(context, calls), responses);
    if (asked) {
      paused = true;
      yield markResumedResult(asked);
    }
    return paused;
  } finally {
    lease?.release();
  }
}

/** The resumed calls as the model event `confirmationEvent` reads them from (not saved). */
function callsEvent(context: InvocationContext, calls: readonly FunctionCall[]): Event {
  return createEvent({
    invocationId: context.invocationId,
    author: context.agentName,
    content: { role: 'model', parts: calls.map((call) => ({ functionCall: call })) },
  });
}
