import { modelViewOf } from './modelOutput.js';
import type { Content, FunctionCall, FunctionResponse, Part } from '../content/content.js';
import type { Event } from '../content/event.js';
import { CLIENT_FUNCTION_CALL_ID_PREFIX } from '../content/ids.js';
import { deepFreeze } from '../sessions/deepFreeze.js';
import { quoted } from './quoted.js';
import { REQUEST_CREDENTIAL_FUNCTION } from '../auth/authTypes.js';
import { taskScopeOf } from '../agents/taskEvents.js';

/** The function name of confirmation requests and replies; the flow's own are kept out of model history (FL-1 #7). */
export const REQUEST_CONFIRMATION_FUNCTION = 'adk_request_confirmation';

/** A late answer's place: the entry and the index of its part. */
interface LateSlot {
  entry: Entry;
  part: number;
}

interface Entry {
  content: Content;
  /** The function calls in `content`, by id (set when the entry is added). */
  calls?: Map<string, FunctionCall>;
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
 * - events of other branches and partial events are left out, and so are the events of every
 *   task but the history's own (a task's history has only its task's events), and the flow's own
 *   confirmation requests and the client's replies; a model's own `adk_request_confirmation` call
 *   and the flow's error answer to it stay, paired, so the model sees it was refused;
 * - other agents' turns become user context ("For context: [agent] said: …");
 * - every call is answered exactly once, in place, right after it: by its first response, or, when
 *   other turns follow before any response came, by `{"status":"pending"}` — so every provider
 *   accepts the history;
 * - late answers come last (DESIGN.md): a response to a call already answered in place (a
 *   long-running tool's update or result, the outcome of a confirmation approved after other
 *   turns) becomes a user text at the point it arrived, naming the call, its arguments and the
 *   outcome, and the in-place answer stays as the model saw it. The one exception is a response
 *   that replaces the one that asked for it (a confirmation, a resumed call) while nothing came in
 *   between: it takes the place of the asking response;
 * - client ids (`adk-…`) are cleared from calls and responses (FL-7).
 *
 * Incremental (issue #15): session stores hand out deep-frozen events, which never change, so the
 * work done for a frozen prefix of the history is kept (per first event, agent and branch) and the
 * next call, next step or next turn, processes only the events after it. The contents built from
 * that prefix are frozen and shared between calls; the array is always the caller's own. Events
 * that are not frozen (an event with temp: keys as the session lists it, a store that lists the
 * caller's own objects, a hand-built history) are processed every call, and so is a frozen prefix
 * shorter than `MIN_KEPT_EVENTS`.
 */
export function buildContents(events: readonly Event[], agentName: string, branch?: string): Content[] {
  let frozen = events.length;
  while (frozen > 0 && !Object.isFrozen(events[frozen - 1])) frozen--;
  const cached = frozen >= MIN_KEPT_EVENTS ? cachedHistory(events, frozen, agentName, branch) : undefined;
  const history = new History(agentName, branch, cached);
  for (let i = cached?.prefix.length ?? 0; i < events.length; i++) history.add(events[i]!);
  return history.render();
}

/**
 * The shortest frozen prefix worth keeping: a first exchange (message, call, response) is built
 * afresh, as keeping it costs more than it saves in a session that ends after one turn (#24).
 */
const MIN_KEPT_EVENTS = 4;

/** The length from which a kept history's contents are copied with the step's own in one go. */
const LONG_HISTORY = 512;

/** What a call with no response yet is answered in place once other turns follow it. */
const PENDING_RESPONSE: Readonly<Record<string, unknown>> = Object.freeze({ status: 'pending' });

/** The longest arguments a late answer repeats in full (the call itself, in place, has them whole). */
const MAX_LATE_ARGS = 1000;

/**
 * The user text a late answer becomes: its first line keeps the long-standing
 * `Update from function <name>: <response>` shape; the second names the call it answers.
 */
function lateAnswerText(call: FunctionCall | undefined, response: FunctionResponse): string {
  const args = quoted(JSON.stringify(call?.args ?? {}), MAX_LATE_ARGS);
  const name = quoted(response.name);
  const id = response.id && !response.id.startsWith(CLIENT_FUNCTION_CALL_ID_PREFIX) ? ` (id ${quoted(response.id)})` : '';
  return (
    `Update from function ${name}: ${JSON.stringify(response.response ?? {})}\n` +
    `This is the latest answer to your earlier call ${name}(${args})${id}.`
  );
}

/** Kept histories, by the first event of the prefix they cover, then by agent and branch. */
const cache = new WeakMap<Event, Map<string, Map<string | undefined, History>>>();

/**
 * The kept history for a prefix of `events` (up to `frozen`), extended in place over the frozen
 * events that follow it; a new one when none matches (another session, or a history that is not an
 * extension of the kept one).
 */
function cachedHistory(events: readonly Event[], frozen: number, agentName: string, branch: string | undefined): History {
  // Two map levels, not a joined key: no string built per call (#24).
  let byAgent = cache.get(events[0]!);
  if (!byAgent) cache.set(events[0]!, (byAgent = new Map()));
  let byBranch = byAgent.get(agentName);
  if (!byBranch) byAgent.set(agentName, (byBranch = new Map()));
  let history = byBranch.get(branch);
  if (!history || !startsWithEvents(events, history.prefix)) byBranch.set(branch, (history = new History(agentName, branch)));
  for (let i = history.prefix.length; i < frozen && Object.isFrozen(events[i]); i++) {
    history.add(events[i]!);
    history.prefix.push(events[i]!);
  }
  return history;
}

/**
 * Whether `events` starts with exactly the events of `prefix` (the same objects). The caller owns
 * the array and may have changed any of it since the last step, so every event is compared: four
 * at a time, a quarter fewer loop tests, which a long session feels at every step (#24).
 */
function startsWithEvents(events: readonly Event[], prefix: readonly Event[]): boolean {
  const length = prefix.length;
  if (length > events.length) return false;
  let i = 0;
  for (; i + 4 <= length; i += 4)
    if (events[i] !== prefix[i] || events[i + 1] !== prefix[i + 1] || events[i + 2] !== prefix[i + 2] || events[i + 3] !== prefix[i + 3])
      return false;
  for (; i < length; i++) if (events[i] !== prefix[i]) return false;
  return true;
}

/**
 * The history processed so far. A kept (cached) history has no base and changes in place; a call's
 * own history has the kept one as its base and never changes it: what it would change in a base
 * entry (responses arriving, a late answer replaced) it keeps aside.
 */
class History {
  /** The events this history covers, when it is a kept one. */
  readonly prefix: Event[] = [];
  private readonly entries: Entry[] = [];
  // Every collection is made when first needed: a history is built per model call, and one
  // without calls needs none of them (#24).
  private callEntry?: Map<string, Entry>;
  /** Calls answered in place (by a response or the pending placeholder). */
  private answered?: Set<string>;
  /**
   * Calls whose first response only asked for confirmation (or was the client's answer to a call
   * that then resumed): the next response takes its place, so the model sees the call's real
   * outcome. Collected in event order: the marker always precedes the answer.
   */
  private awaiting?: Set<string>;
  /** Base calls no longer awaiting confirmation in this history. */
  private settled?: Set<string>;
  /** Ids of the flow's own confirmation requests: they and the replies to them stay out. */
  private hidden?: Set<string>;
  /**
   * Where the client's late answer to a call sits (a late-answer entry and its part): a resumed
   * call's own answer replaces it. `undefined` here hides the base's slot.
   */
  private clientLate?: Map<string, LateSlot | undefined>;
  /** Responses of base entries as this history has them. */
  private responses?: Map<Entry, Part[]>;
  /** Contents of base entries as this history has them (a late answer replaced). */
  private contents?: Map<Entry, Content>;
  /** A kept history's rendered contents, for its first `renderedCount` entries (undefined: render again). */
  private rendered: Content[] | undefined;
  private renderedCount = 0;

  constructor(
    private readonly agentName: string,
    private readonly branch: string | undefined,
    private readonly base?: History,
  ) {}

  /** The event's parts this history shows: the event's own list when none is hidden (no copy, #24). */
  private shownParts(parts: readonly Part[], event: Event): readonly Part[] {
    for (let i = 0; i < parts.length; i++) {
      if (!this.hides(parts[i]!, event)) continue;
      // Each part is asked once, in order, as hiding one may hide a later one.
      const shown = parts.slice(0, i);
      for (let j = i + 1; j < parts.length; j++) if (!this.hides(parts[j]!, event)) shown.push(parts[j]!);
      return shown;
    }
    return parts;
  }

  add(event: Event): void {
    // A task's events are its own: the parent never sees them, the task sees nothing else (#27).
    if (taskScopeOf(event.branch) !== taskScopeOf(this.branch)) return;
    const agentName = this.agentName;
    if (event.author === agentName) {
      // Only when there is something: most events ask for nothing, and cost no key array (#24).
      const { requestedToolConfirmations, requestedAuthConfigs, startedToolCalls } = event.actions ?? {};
      if (requestedToolConfirmations) for (const id of Object.keys(requestedToolConfirmations)) this.await(id);
      // A call waiting for a credential (AU-2): the response after the consent is its outcome.
      if (requestedAuthConfigs) for (const id of Object.keys(requestedAuthConfigs)) this.await(id);
      // A resumed call (a resumable tool answered by the client): its answer replaces the client's.
      if (startedToolCalls) for (const id of startedToolCalls) this.await(id);
    }
    if (event.partial || !event.content?.parts?.length) return;
    if (this.branch !== undefined && event.branch !== undefined && !isAncestorBranch(event.branch, this.branch)) return;
    const parts = this.shownParts(event.content.parts, event);
    if (parts.length === 0) return;

    if (event.author !== 'user' && event.author !== agentName) {
      const context = presentAsContext(event.author, parts);
      if (context) this.push({ content: context, owner: this });
      return;
    }

    const kept: Part[] = [];
    // Late answers are rare: their lists are made for the first one.
    let late: Part[] | undefined;
    let clientSlots: Array<[string, number]> | undefined;
    for (const part of parts) {
      const response = part.functionResponse;
      const id = response?.id;
      const owner = id ? this.ownerOf(id) : undefined;
      if (!response || !id || !owner) {
        kept.push(part);
        continue;
      }
      const answered = this.isAnswered(id);
      const awaited = answered && this.takeAwaiting(id);
      // Any answer of the agent's own ends the client's slot: only the next one may replace it.
      const slot = event.author !== 'user' ? this.clientSlot(id) : undefined;
      if (slot) this.setClientSlot(id, undefined);
      if (!answered) {
        this.setResponses(owner, [...(this.responsesOf(owner) ?? []), part]);
        (this.answered ??= new Set()).add(id);
        continue;
      }
      if (awaited && owner === this.last() && this.replaceInPlace(owner, part)) continue;
      const text = lateAnswerText(findCall(owner, id), part.partMetadata ? modelViewOf(part).functionResponse! : response);
      if (awaited && slot) {
        const content = this.contentOf(slot.entry);
        const replaced = [...(content.parts ?? [])];
        replaced[slot.part] = { text };
        this.setContent(slot.entry, { ...content, parts: replaced });
        continue;
      }
      late ??= [];
      if (event.author === 'user') (clientSlots ??= []).push([id, late.length]);
      late.push({ text });
    }
    if (kept.length > 0)
      this.push({ content: { role: event.content.role ?? (event.author === 'user' ? 'user' : 'model'), parts: kept }, owner: this });
    if (late) {
      const entry: Entry = { content: { role: 'user', parts: late }, owner: this };
      this.push(entry);
      for (const [id, part] of clientSlots ?? []) this.setClientSlot(id, { entry, part });
    }
  }

  /**
   * The contents: the base's kept rendering (one array copy), with what this history changed in
   * base entries put in, then this history's own entries.
   */
  render(): Content[] {
    // A long kept history is copied once, in one array of the final length (concat), not copied
    // and then grown again by the step's own entries (#24). A short one is sliced and pushed to:
    // concat runs in the runtime, which costs more than growing a short array.
    const kept = this.base?.keptContents();
    const contents = kept && kept.length >= LONG_HISTORY ? kept.concat(this.renderOwn([])) : this.renderOwn(kept ? kept.slice() : []);
    if (this.contents) for (const [entry, content] of this.contents) contents[entry.index!] = clearClientIds(content);
    // Responses for base entries, last first so that earlier indexes stay right (the history's
    // own entries all come after them).
    const aside = this.responses ? [...this.responses].sort(([a], [b]) => b.index! - a.index!) : [];
    for (const [entry, parts] of aside) {
      const rendered = clearClientIds({ role: 'user', parts });
      if (entry.responses) contents[entry.index! + 1] = rendered;
      else contents.splice(entry.index! + 1, 0, rendered);
    }
    return contents;
  }

  /** This history's own entries, rendered onto `contents`. */
  private renderOwn(contents: Content[]): Content[] {
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

  /**
   * Adds an entry. The entry before it is closed first: a call of it still without a response is
   * answered `{"status":"pending"}` in place, so each call has exactly one answer right after it
   * and anything arriving later is a late answer.
   */
  private push(entry: Entry): void {
    const previous = this.last();
    const calls = previous?.calls && [...previous.calls.values()].filter((call) => this.ownerOf(call.id!) === previous);
    if (previous && calls?.some((call) => !this.isAnswered(call.id!))) {
      // In call order: the answers given, each unanswered call's placeholder between them.
      const given = this.responsesOf(previous) ?? [];
      const byId = new Map(given.map((response) => [response.functionResponse?.id, response]));
      const ordered = calls.flatMap(({ id, name }): Part[] => {
        const answer = byId.get(id);
        if (answer) return [answer];
        if (this.isAnswered(id!)) return []; // answered inside its own turn
        (this.answered ??= new Set()).add(id!);
        return [{ functionResponse: { id, name, response: { ...PENDING_RESPONSE } } }];
      });
      const placed = new Set(ordered);
      this.setResponses(previous, [...ordered, ...given.filter((response) => !placed.has(response))]);
    }
    this.entries.push(entry);
    const parts = entry.content.parts ?? [];
    let answeredInside: Set<string> | undefined;
    for (const part of parts) {
      const call = part.functionCall;
      if (call?.id) (entry.calls ??= new Map()).set(call.id, call);
      else if (part.functionResponse?.id) (answeredInside ??= new Set()).add(part.functionResponse.id);
    }
    for (const id of entry.calls?.keys() ?? []) {
      (this.callEntry ??= new Map()).set(id, entry);
      // Answered inside its own turn (a server-side tool): that answer is the one.
      if (answeredInside?.has(id)) (this.answered ??= new Set()).add(id);
    }
  }

  /** The newest entry, this history's or its base's. */
  private last(): Entry | undefined {
    return this.entries.at(-1) ?? this.base?.entries.at(-1);
  }

  private ownerOf(id: string): Entry | undefined {
    return this.callEntry?.get(id) ?? this.base?.callEntry?.get(id);
  }

  private isAnswered(id: string): boolean {
    return this.answered?.has(id) === true || this.base?.answered?.has(id) === true;
  }

  /**
   * Whether the part is confirmation traffic the model must not see: a request the flow made (it
   * marks them long-running) and any reply to one. A model's own call to the reserved name, and
   * the flow's error answer to it, stay.
   */
  private hides(part: Part, event: Event): boolean {
    const call = part.functionCall;
    if (call && (call.name === REQUEST_CONFIRMATION_FUNCTION || call.name === REQUEST_CREDENTIAL_FUNCTION)) {
      if (!call.id || event.author === 'user' || !event.longRunningToolIds?.includes(call.id)) return false;
      (this.hidden ??= new Set()).add(call.id);
      return true;
    }
    const response = part.functionResponse;
    if (!response || (response.name !== REQUEST_CONFIRMATION_FUNCTION && response.name !== REQUEST_CREDENTIAL_FUNCTION)) return false;
    return event.author === 'user' || (response.id !== undefined && (this.hidden?.has(response.id) === true || this.base?.hidden?.has(response.id) === true));
  }

  /** Puts `part` in place of the response to the same call; false when there is none to replace. */
  private replaceInPlace(owner: Entry, part: Part): boolean {
    const list = [...(this.responsesOf(owner) ?? [])];
    const at = list.findIndex((p) => p.functionResponse?.id === part.functionResponse!.id);
    if (at < 0) return false;
    list[at] = part;
    this.setResponses(owner, list);
    return true;
  }

  private clientSlot(id: string): LateSlot | undefined {
    return this.clientLate?.has(id) ? this.clientLate.get(id) : this.base?.clientLate?.get(id);
  }

  /** Sets where the client's late answer to the call sits; `undefined` ends its slot. */
  private setClientSlot(id: string, slot: LateSlot | undefined): void {
    (this.clientLate ??= new Map()).set(id, slot);
  }

  /** Marks the call as awaiting confirmation (or its resumed answer). */
  private await(id: string): void {
    (this.awaiting ??= new Set()).add(id);
  }

  /** Whether the call was awaiting confirmation; it no longer is. */
  private takeAwaiting(id: string): boolean {
    if (this.awaiting?.delete(id)) return true;
    if (this.base?.awaiting?.has(id) && !this.settled?.has(id)) {
      (this.settled ??= new Set()).add(id);
      return true;
    }
    return false;
  }

  private responsesOf(entry: Entry): Part[] | undefined {
    return this.responses?.get(entry) ?? entry.responses;
  }

  private contentOf(entry: Entry): Content {
    return this.contents?.get(entry) ?? entry.content;
  }

  private setContent(entry: Entry, content: Content): void {
    if (entry.owner !== this) {
      (this.contents ??= new Map()).set(entry, content);
      return;
    }
    entry.content = content;
    entry.rendered = undefined;
    if (this.rendered && entry.index !== undefined) this.rendered[entry.index] = entry.rendered = deepFreeze(clearClientIds(content));
  }

  private setResponses(entry: Entry, parts: Part[]): void {
    if (entry.owner !== this) {
      (this.responses ??= new Map()).set(entry, parts);
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

/** The call with this id in an entry's content. */
function findCall(entry: Entry, id: string): FunctionCall | undefined {
  return entry.calls?.get(id);
}

function isAncestorBranch(eventBranch: string, branch: string): boolean {
  return branch === eventBranch || branch.startsWith(`${eventBranch}.`);
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
        text: `[${author}] \`${part.functionResponse.name}\` tool returned result: ${JSON.stringify(modelViewOf(part).functionResponse!.response ?? {})}`,
      });
    else lines.push(part);
  }
  return lines.length > 1 ? { role: 'user', parts: lines } : undefined;
}

/**
 * The content as the model gets it: client call ids (`adk-…`) cleared, tool views in place of
 * results. A content with nothing to change is returned as it is: every caller hands in a content
 * the history made itself (its own entry, a copy, or one it freezes for the cache), never an event's.
 */
function clearClientIds(content: Content): Content {
  if (!content.parts?.some(needsClearing)) return content;
  const parts = content.parts.map((given) => {
    // A tool's toModelOutput view replaces its stored result in what the model gets (#30).
    const part = given.partMetadata ? modelViewOf(given) : given;
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

function needsClearing(part: Part): boolean {
  return (
    part.partMetadata !== undefined ||
    part.functionCall?.id?.startsWith(CLIENT_FUNCTION_CALL_ID_PREFIX) === true ||
    part.functionResponse?.id?.startsWith(CLIENT_FUNCTION_CALL_ID_PREFIX) === true
  );
}
