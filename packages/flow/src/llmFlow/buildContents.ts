import type { Content, Part } from '../content/content.js';
import type { Event } from '../content/event.js';
import { CLIENT_FUNCTION_CALL_ID_PREFIX } from '../content/ids.js';
import { deepFreeze } from '../sessions/deepFreeze.js';

/** The function name of confirmation requests and replies, kept out of model history (FL-1 #7). */
export const REQUEST_CONFIRMATION_FUNCTION = 'adk_request_confirmation';

interface Entry {
  content: Content;
  /** Responses placed right after this entry's function calls, whenever they arrived. */
  responses?: Part[];
  /** The history that made the entry: only it may change the entry itself. */
  owner: History;
  /** The rendered content and responses, kept for entries of a cached history (frozen, shared). */
  rendered?: Content;
  renderedResponses?: Content;
  /** Where `rendered` sits in the kept history's rendered contents. */
  index?: number;
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
 *
 * Incremental (issue #15): session stores hand out deep-frozen events, which never change, so the
 * work done for a frozen prefix of the history is kept (per first event, agent and branch) and the
 * next call, next step or next turn, processes only the events after it. The contents built from
 * that prefix are frozen and shared between calls; the array is always the caller's own. Events
 * that are not frozen (this invocation's own, or a hand-built history) are processed every call.
 */
export function buildContents(events: readonly Event[], agentName: string, branch?: string): Content[] {
  let frozen = events.length;
  while (frozen > 0 && !Object.isFrozen(events[frozen - 1])) frozen--;
  const cached = frozen > 0 ? cachedHistory(events, frozen, agentName, branch) : undefined;
  const history = new History(agentName, branch, cached);
  for (let i = cached?.prefix.length ?? 0; i < events.length; i++) history.add(events[i]!);
  return history.render();
}

/** Kept histories, by the first event of the prefix they cover, then by agent and branch. */
const cache = new WeakMap<Event, Map<string, History>>();

/**
 * The kept history for a prefix of `events` (up to `frozen`), extended in place over the frozen
 * events that follow it; a new one when none matches (another session, or a history that is not an
 * extension of the kept one).
 */
function cachedHistory(events: readonly Event[], frozen: number, agentName: string, branch: string | undefined): History {
  const key = JSON.stringify([agentName, branch ?? null]);
  let byAgent = cache.get(events[0]!);
  if (!byAgent) cache.set(events[0]!, (byAgent = new Map()));
  let history = byAgent.get(key);
  if (!history || !startsWithEvents(events, history.prefix)) byAgent.set(key, (history = new History(agentName, branch)));
  for (let i = history.prefix.length; i < frozen && Object.isFrozen(events[i]); i++) {
    history.add(events[i]!);
    history.prefix.push(events[i]!);
  }
  return history;
}

/** Whether `events` starts with exactly the events of `prefix` (the same objects). */
function startsWithEvents(events: readonly Event[], prefix: readonly Event[]): boolean {
  if (prefix.length > events.length) return false;
  for (let i = 0; i < prefix.length; i++) if (events[i] !== prefix[i]) return false;
  return true;
}

/**
 * The history processed so far. A kept (cached) history has no base and changes in place; a call's
 * own history has the kept one as its base and never changes it: what it would change in a base
 * entry (responses arriving later) it keeps aside.
 */
class History {
  /** The events this history covers, when it is a kept one. */
  readonly prefix: Event[] = [];
  private readonly entries: Entry[] = [];
  private readonly callEntry = new Map<string, Entry>();
  private readonly answered = new Set<string>();
  // Calls whose first response only asked for confirmation (or was the client's answer to a call
  // that then resumed): the next response takes its place, so the model sees the call's real
  // outcome right after the call. Collected in event order: the marker always precedes the answer.
  private readonly awaiting = new Set<string>();
  /** Base calls no longer awaiting confirmation in this history. */
  private readonly settled = new Set<string>();
  /** Responses of base entries as this history has them. */
  private readonly responses = new Map<Entry, Part[]>();
  /** A kept history's rendered contents, for its first `renderedCount` entries (undefined: render again). */
  private rendered: Content[] | undefined;
  private renderedCount = 0;

  constructor(
    private readonly agentName: string,
    private readonly branch: string | undefined,
    private readonly base?: History,
  ) {}

  add(event: Event): void {
    const agentName = this.agentName;
    if (event.author === agentName) {
      for (const id of Object.keys(event.actions?.requestedToolConfirmations ?? {})) this.awaiting.add(id);
      // A resumed call (a resumable tool answered by the client): its answer replaces the client's.
      for (const id of event.actions?.startedToolCalls ?? []) this.awaiting.add(id);
    }
    if (event.partial || !event.content?.parts?.length) return;
    if (this.branch !== undefined && event.branch !== undefined && !isAncestorBranch(event.branch, this.branch)) return;
    const parts = event.content.parts.filter((part) => !isConfirmationPart(part));
    if (parts.length === 0) return;

    if (event.author !== 'user' && event.author !== agentName) {
      const context = presentAsContext(event.author, parts);
      if (context) this.entries.push({ content: context, owner: this });
      return;
    }

    const kept: Part[] = [];
    for (const part of parts) {
      const response = part.functionResponse;
      if (!response?.id) {
        kept.push(part);
        continue;
      }
      const owner = this.callEntry.get(response.id) ?? this.base?.callEntry.get(response.id);
      const answered = this.answered.has(response.id) || this.base?.answered.has(response.id) === true;
      if (!owner) kept.push(part);
      else if (answered && this.takeAwaiting(response.id)) {
        const list = [...this.responsesOf(owner)!];
        list[list.findIndex((p) => p.functionResponse?.id === response.id)] = part;
        this.setResponses(owner, list);
      } else if (answered) kept.push({ text: `Update from function ${response.name}: ${JSON.stringify(response.response ?? {})}` });
      else {
        this.setResponses(owner, [...(this.responsesOf(owner) ?? []), part]);
        this.answered.add(response.id);
      }
    }
    if (kept.length === 0) return;
    const entry: Entry = { content: { role: event.content.role ?? (event.author === 'user' ? 'user' : 'model'), parts: kept }, owner: this };
    this.entries.push(entry);
    for (const part of kept) if (part.functionCall?.id) this.callEntry.set(part.functionCall.id, entry);
  }

  /**
   * The contents: the base's kept rendering (one array copy), with the responses this history set
   * aside for base entries put in, then this history's own entries.
   */
  render(): Content[] {
    const contents = this.base ? this.base.keptContents().slice() : [];
    // Responses for base entries, last first so that earlier indexes stay right.
    const aside = [...this.responses].sort(([a], [b]) => b.index! - a.index!);
    for (const [entry, parts] of aside) {
      const rendered = clearClientIds({ role: 'user', parts });
      if (entry.responses) contents[entry.index! + 1] = rendered;
      else contents.splice(entry.index! + 1, 0, rendered);
    }
    for (const entry of this.entries) {
      contents.push(clearClientIds(entry.content));
      if (entry.responses) contents.push(clearClientIds({ role: 'user', parts: entry.responses }));
    }
    return contents;
  }

  /** A kept history's contents, rendered once per entry, frozen, extended as entries come. */
  private keptContents(): Content[] {
    if (!this.rendered) {
      this.rendered = [];
      this.renderedCount = 0;
    }
    for (; this.renderedCount < this.entries.length; this.renderedCount++) {
      const entry = this.entries[this.renderedCount]!;
      entry.index = this.rendered.length;
      this.rendered.push((entry.rendered ??= deepFreeze(clearClientIds(entry.content))));
      if (entry.responses) this.rendered.push((entry.renderedResponses ??= deepFreeze(clearClientIds({ role: 'user', parts: entry.responses }))));
    }
    return this.rendered;
  }

  /** Whether the call was awaiting confirmation; it no longer is. */
  private takeAwaiting(id: string): boolean {
    if (this.awaiting.delete(id)) return true;
    if (this.base?.awaiting.has(id) && !this.settled.has(id)) {
      this.settled.add(id);
      return true;
    }
    return false;
  }

  private responsesOf(entry: Entry): Part[] | undefined {
    return this.responses.get(entry) ?? entry.responses;
  }

  private setResponses(entry: Entry, parts: Part[]): void {
    if (entry.owner !== this) {
      this.responses.set(entry, parts);
      return;
    }
    const had = entry.responses !== undefined;
    entry.responses = parts;
    entry.renderedResponses = undefined;
    // Keep the kept rendering in step when it already holds the entry: replace its responses, or
    // add them when the entry is the last one rendered; else render again on the next call.
    if (!this.rendered || entry.index === undefined) return;
    const next = entry.index + 1;
    if (had) this.rendered[next] = entry.renderedResponses = deepFreeze(clearClientIds({ role: 'user', parts }));
    else if (next === this.rendered.length) this.rendered.push((entry.renderedResponses = deepFreeze(clearClientIds({ role: 'user', parts }))));
    else this.rendered = undefined;
  }
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
