import type { ToolCallbacks } from './callTool.js';
import type { FunctionCall } from '../content/content.js';
import { getFunctionResponses, type Event } from '../content/event.js';
import { executeFunctionCalls } from './executeFunctionCalls.js';
import { withCredentialRequests } from './credentialRequestEvent.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import { isResumableTool, type Tool } from '../tools/tool.js';
import { REQUEST_CONFIRMATION_FUNCTION } from './buildContents.js';
import { REQUEST_CREDENTIAL_FUNCTION } from '../auth/authTypes.js';
import { isCallAnswered } from '../confirmation/confirmationRequests.js';
import { findAgentCall, interruptedMessage, resumeStateOf, startedBetween, startedEvent, timeLimitOf } from './pausedCalls.js';
import { leaseRunningCalls } from './runningCalls.js';

/**
 * Resumes paused calls of resumable tools (`tool.resume`) that the user's message of this
 * invocation answers: the tool gets the client's answer and its saved `resumeState`, and what it
 * returns is the response the model sees. The same at-most-once rule as confirmations: a marker is
 * saved first, and a resume re-sent after a crash reports the call as interrupted unless the tool
 * is `idempotent`.
 */
export async function* resumePausedCalls(
  context: InvocationContext,
  tools: readonly Tool[],
  callbacks: ToolCallbacks,
  agent: LlmAgent,
): AsyncGenerator<Event, void, undefined> {
  const events = context.session.events;
  const userIndex = events.findLastIndex((event) => event.author === 'user' && event.invocationId === context.invocationId);
  if (userIndex < 0) return;
  const resumable = new Map(tools.filter(isResumableTool).map((tool) => [tool.name, tool]));
  if (resumable.size === 0) return;
  const calls: FunctionCall[] = [];
  const resumeResponses: Record<string, Record<string, unknown>> = {};
  const resumeStates: Record<string, unknown> = {};
  const refusals = new Map<string, string>();
  for (const response of getFunctionResponses(events[userIndex]!)) {
    if (!response.id || response.name === REQUEST_CONFIRMATION_FUNCTION || response.name === REQUEST_CREDENTIAL_FUNCTION || Object.hasOwn(resumeResponses, response.id)) continue;
    const found = findAgentCall(events, agent.name, response.id, userIndex);
    const tool = found && resumable.get(found.call.name);
    if (!found || !tool) continue;
    // Answered by the tool already (in an earlier step of this run, or an earlier resume): leave it.
    if (answeredByAgent(events, response.id, found.index + 1, agent.name)) continue;
    if (startedBetween(events, response.id, found.index + 1, userIndex) && !tool.idempotent)
      refusals.set(response.id, interruptedMessage(found.call));
    resumeResponses[response.id] = response.response ?? {};
    resumeStates[response.id] = resumeStateOf(events, response.id, userIndex);
    calls.push(found.call);
  }
  if (calls.length === 0) return;
  const starting = calls.filter((call) => !refusals.has(call.id!)).map((call) => call.id!);
  const timeLimit = timeLimitOf(calls.filter((call) => starting.includes(call.id!)), resumable, agent.toolTimeoutMs);
  const marker = starting.length > 0 ? startedEvent(context, starting, timeLimit) : undefined;
  // Held until the answers are saved (or the run ends without them): see `runningCalls`.
  const lease = marker && leaseRunningCalls(marker.id, starting);
  try {
    if (marker) yield marker;
    if (context.signal.aborted) return;
    yield* withCredentialRequests(context, executeFunctionCalls({
      invocation: context,
      calls,
      tools: Object.fromEntries(calls.map((call) => [call.name, resumable.get(call.name)!])),
      callbacks,
      resumeResponses,
      resumeStates,
      refusals,
      maxConcurrency: agent.maxToolConcurrency,
      toolTimeoutMs: agent.toolTimeoutMs,
    }));
  } finally {
    lease?.release();
  }
}

function answeredByAgent(events: readonly Event[], callId: string, from: number, agentName: string): boolean {
  for (let i = from; i < events.length; i++) {
    const event = events[i]!;
    if (event.author === agentName && isCallAnswered([event], callId, 0)) return true;
  }
  return false;
}
