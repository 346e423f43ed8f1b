import type { Content, Part } from '../content/content.js';
import type { Event } from '../content/event.js';
import { CLIENT_FUNCTION_CALL_ID_PREFIX } from '../content/ids.js';

/** The function name of confirmation requests and replies, kept out of model history (FL-1 #7). */
export const REQUEST_CONFIRMATION_FUNCTION = 'adk_request_confirmation';

interface Entry {
  content: Content;
  /** Responses placed right after this entry's function calls, whenever they arrived. */
  responses?: Part[];
}

/**
 * Builds the model's history from the session's events for one agent (FL-1 #7):
 * - events of other branches, partial events and confirmation traffic are left out;
 * - other agents' turns become user context ("For context: [agent] said: …");
 * - a function response is placed right after its call, even when it arrived turns later (a
 *   long-running tool answering); the response given after a confirmation replaces the one that
 *   asked for it; any other later response to an answered call becomes a user text update, so
 *   every provider accepts the history;
 * - client ids (`adk-…`) are cleared from calls and responses (FL-7).
 */
export function buildContents(events: readonly Event[], agentName: string, branch?: string): Content[] {
  const entries: Entry[] = [];
  const callEntry = new Map<string, Entry>();
  const answered = new Set<string>();
  // Calls whose first response only asked for confirmation: the response after the user's answer
  // takes its place, so the model sees the call's real outcome right after the call.
  const awaitingConfirmation = new Set<string>();
  for (const event of events)
    if (event.author === agentName) {
      for (const id of Object.keys(event.actions?.requestedToolConfirmations ?? {})) awaitingConfirmation.add(id);
      // A resumed call (a resumable tool answered by the client): its answer replaces the client's.
      for (const id of event.actions?.startedToolCalls ?? []) awaitingConfirmation.add(id);
    }

  for (const event of events) {
    if (event.partial || !event.content?.parts?.length) continue;
    if (branch !== undefined && event.branch !== undefined && !isAncestorBranch(event.branch, branch)) continue;
    const parts = event.content.parts.filter((part) => !isConfirmationPart(part));
    if (parts.length === 0) continue;

    if (event.author !== 'user' && event.author !== agentName) {
      const context = presentAsContext(event.author, parts);
      if (context) entries.push({ content: context });
      continue;
    }

    const kept: Part[] = [];
    for (const part of parts) {
      const response = part.functionResponse;
      if (!response?.id) {
        kept.push(part);
        continue;
      }
      const owner = callEntry.get(response.id);
      if (!owner) kept.push(part);
      else if (answered.has(response.id) && awaitingConfirmation.delete(response.id)) {
        const placeholder = owner.responses!.findIndex((p) => p.functionResponse?.id === response.id);
        owner.responses![placeholder] = part;
      } else if (answered.has(response.id))
        kept.push({ text: `Update from function ${response.name}: ${JSON.stringify(response.response ?? {})}` });
      else {
        (owner.responses ??= []).push(part);
        answered.add(response.id);
      }
    }
    if (kept.length === 0) continue;
    const entry: Entry = { content: { role: event.content.role ?? (event.author === 'user' ? 'user' : 'model'), parts: kept } };
    entries.push(entry);
    for (const part of kept) if (part.functionCall?.id) callEntry.set(part.functionCall.id, entry);
  }

  const contents: Content[] = [];
  for (const entry of entries) {
    contents.push(clearClientIds(entry.content));
    if (entry.responses) contents.push(clearClientIds({ role: 'user', parts: entry.responses }));
  }
  return contents;
}

function isAncestorBranch(eventBranch: string, branch: string): boolean {
  return branch === eventBranch || branch.startsWith(`${eventBranch}.`);
}

function isConfirmationPart(part: Part): boolean {
  return (
    part.functionCall?.name === REQUEST_CONFIRMATION_FUNCTION ||
    part.functionResponse?.name === REQUEST_CONFIRMATION_FUNCTION
  );
}

/** Another agent's turn, told to this agent as user context. */
function presentAsContext(author: string, parts: readonly Part[]): Content | undefined {
  const lines: Part[] = [{ text: 'For context:' }];
  for (const part of parts) {
    if (part.thought) continue;
    if (part.text) lines.push({ text: `[${author}] said: ${part.text}` });
    else if (part.functionCall)
      lines.push({
        text: `[${author}] called tool \`${part.functionCall.name}\` with parameters: ${JSON.stringify(part.functionCall.args ?? {})}`,
      });
    else if (part.functionResponse)
      lines.push({
        text: `[${author}] \`${part.functionResponse.name}\` tool returned result: ${JSON.stringify(part.functionResponse.response ?? {})}`,
      });
    else lines.push(part);
  }
  return lines.length > 1 ? { role: 'user', parts: lines } : undefined;
}

function clearClientIds(content: Content): Content {
  const parts = content.parts?.map((part) => {
    if (part.functionCall?.id?.startsWith(CLIENT_FUNCTION_CALL_ID_PREFIX)) {
      const { id: _id, ...call } = part.functionCall;
      return { ...part, functionCall: call };
    }
    if (part.functionResponse?.id?.startsWith(CLIENT_FUNCTION_CALL_ID_PREFIX)) {
      const { id: _id, ...response } = part.functionResponse;
      return { ...part, functionResponse: response };
    }
    return part;
  });
  return { ...content, parts };
}
