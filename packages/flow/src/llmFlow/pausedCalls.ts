import { createEvent, getFunctionCalls, type Event } from '../content/event.js';
import type { FunctionCall } from '../content/content.js';
import type { InvocationContext } from '../context/invocationContext.js';
import { REQUEST_CONFIRMATION_FUNCTION } from './buildContents.js';
import { quoted } from './quoted.js';
import { hostName } from './runningCalls.js';
import { REQUEST_CREDENTIAL_FUNCTION } from '../auth/authTypes.js';

/** What the paused call saved with `ctx.setResumeState`, newest first; `undefined` when nothing. */
export function resumeStateOf(events: readonly Event[], callId: string, before: number): unknown {
  for (let i = Math.min(before, events.length) - 1; i >= 0; i--) {
    const states = events[i]!.actions.resumeStates;
    if (states && Object.hasOwn(states, callId)) return states[callId];
  }
  return undefined;
}

/** Whether a resume of the call started (its marker is saved) between `from` and `to`. */
export function startedBetween(events: readonly Event[], callId: string, from: number, to: number): boolean {
  for (let i = Math.max(from, 0); i < Math.min(to, events.length); i++)
    if (events[i]!.actions.startedToolCalls?.includes(callId)) return true;
  return false;
}

/**
 * Index of the newest event before `before` that paused the call: its long-running marker (the
 * call or a resume of it paused on its own), or the responses event in which it asked for an
 * approval or a credential; -1 when none. A started marker before it was a resume that ended in
 * that pause, not one interrupted; an answer to an older request was spent by that resume.
 */
export function lastPauseIndex(events: readonly Event[], callId: string, before: number): number {
  for (let i = Math.min(before, events.length) - 1; i >= 0; i--) {
    const event = events[i]!;
    const { requestedToolConfirmations: approvals, requestedAuthConfigs: credentials } = event.actions;
    if (
      event.longRunningToolIds?.includes(callId) ||
      (approvals !== undefined && Object.hasOwn(approvals, callId)) ||
      (credentials !== undefined && Object.hasOwn(credentials, callId))
    )
      return i;
  }
  return -1;
}

/** The model's call with this id, made by this agent before `before`, with its event index. */
export function findAgentCall(
  events: readonly Event[],
  author: string,
  id: string,
  before: number,
): { call: FunctionCall; index: number } | undefined {
  for (let i = Math.min(before, events.length) - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.author !== author) continue;
    const call = getFunctionCalls(event).find((c) => c.id === id && c.name !== REQUEST_CONFIRMATION_FUNCTION && c.name !== REQUEST_CREDENTIAL_FUNCTION);
    if (call) return { call, index: i };
  }
  return undefined;
}

/**
 * The event saved before resumed calls run (at most once, said so): after a crash while they ran,
 * the next resume finds it with no answer and reports the calls as interrupted. It names the
 * machine it ran on; while the calls run, their process holds a lease on them (`runningCalls`),
 * so a second delivery of the same answer is told they are still running, not interrupted.
 */
export function startedEvent(context: InvocationContext, callIds: readonly string[], timeLimitMs?: number): Event {
  const host = hostName();
  const metadata: Record<string, unknown> = {};
  if (host !== undefined) metadata.adkitStartedOn = host;
  // Every call has a time limit: past it (and a grace for saving), no process still runs them.
  if (timeLimitMs !== undefined) metadata.adkitRunsUntil = Date.now() + timeLimitMs + SAVE_GRACE_MS;
  return createEvent({
    invocationId: context.invocationId,
    author: context.agentName,
    branch: context.branch,
    actions: { startedToolCalls: [...callIds] },
    customMetadata: Object.keys(metadata).length > 0 ? metadata : undefined,
  });
}

/** How long after its calls' time limit a run may still be saving their answers (and clock skew). */
const SAVE_GRACE_MS = 60_000;

/** The longest time limit of the calls (the tool's `timeoutMs`, else the agent's), if all have one. */
export function timeLimitOf(calls: readonly FunctionCall[], tools: ReadonlyMap<string, { timeoutMs?: number }>, agentLimit?: number): number | undefined {
  let longest = 0;
  for (const call of calls) {
    const limit = tools.get(call.name)?.timeoutMs ?? agentLimit;
    if (limit === undefined) return undefined;
    longest = Math.max(longest, limit);
  }
  return longest;
}

/** The newest started marker of the call from `from` on, with its index, if any. */
export function startedMarker(events: readonly Event[], callId: string, from: number): { event: Event; index: number } | undefined {
  for (let i = events.length - 1; i >= Math.max(from, 0); i--)
    if (events[i]!.actions.startedToolCalls?.includes(callId)) return { event: events[i]!, index: i };
  return undefined;
}

/** What the model sees for a call that was interrupted by a crash and is not idempotent. */
export function interruptedMessage(call: FunctionCall): string {
  return (
    `Tool "${quoted(call.name)}" call "${quoted(call.id ?? '')}" was interrupted: the process stopped while it ran, so whether it took ` +
    'effect is unknown. It was not run again. Check its effect before trying again, or tell the user.'
  );
}
