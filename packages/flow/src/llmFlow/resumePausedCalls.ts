import type { ToolCallbacks } from './callTool.js';
import type { FunctionCall } from '../content/content.js';
import { getFunctionResponses, type Event } from '../content/event.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import { isResumableTool, type Tool } from '../tools/tool.js';
import { REQUEST_CONFIRMATION_FUNCTION } from './buildContents.js';
import { REQUEST_CREDENTIAL_FUNCTION } from '../auth/authTypes.js';
import { isCallAnswered } from '../confirmation/confirmationRequests.js';
import { findAgentCall, interruptedMessage, lastPauseIndex, resumeStateOf, startedBetween } from './pausedCalls.js';
import { runResumedCalls } from './runResumedCalls.js';

/**
 * Resumes paused calls of resumable tools (`tool.resume`) that the user's message of this
 * invocation answers: the tool gets the client's answer and its saved `resumeState`, and what it
 * returns is the response the model sees. The same at-most-once rule as confirmations: a marker is
 * saved first, and a resume re-sent after a crash reports the call as interrupted unless the tool
 * is `idempotent`. A resume that pauses again (the tool answers `undefined` once more, asks for
 * an approval or a credential) is a new pause, like a first call's (`runResumedCalls`): resumed
 * again by the next answer, never reported interrupted. Returns whether a call paused.
 */
export async function* resumePausedCalls(
  context: InvocationContext,
  tools: readonly Tool[],
  callbacks: ToolCallbacks,
  agent: LlmAgent,
): AsyncGenerator<Event, boolean, undefined> {
  const events = context.session.events;
  const userIndex = events.findLastIndex((event) => event.author === 'user' && event.invocationId === context.invocationId);
  if (userIndex < 0) return false;
  const resumable = new Map(tools.filter(isResumableTool).map((tool) => [tool.name, tool]));
  if (resumable.size === 0) return false;
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
    // Only a resume started since the call's last pause can have been interrupted.
    const from = Math.max(found.index, lastPauseIndex(events, response.id, userIndex)) + 1;
    if (startedBetween(events, response.id, from, userIndex) && !tool.idempotent)
      refusals.set(response.id, interruptedMessage(found.call));
    resumeResponses[response.id] = response.response ?? {};
    resumeStates[response.id] = resumeStateOf(events, response.id, userIndex);
    calls.push(found.call);
  }
  if (calls.length === 0) return false;
  return yield* runResumedCalls(context, agent, { calls, tools: resumable, callbacks, resumeResponses, resumeStates, refusals });
}

function answeredByAgent(events: readonly Event[], callId: string, from: number, agentName: string): boolean {
  for (let i = from; i < events.length; i++) {
    const event = events[i]!;
    if (event.author === agentName && isCallAnswered([event], callId, 0)) return true;
  }
  return false;
}
