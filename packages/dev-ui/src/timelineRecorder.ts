import type { LlmRequest } from '@adkit/flow';
import { clipString } from './displayValue.js';
import { modelRequestView, type ModelRequestView } from './modelRequestView.js';

/** Which session something happened in. */
export interface SessionRef {
  appName: string;
  userId: string;
  sessionId: string;
}

/** One bar of the timeline: a model call, a tool call, or a call waiting for a person. */
export interface TimelineSpan {
  id: string;
  kind: 'model' | 'tool' | 'wait';
  /** The agent for a model call; the tool for a tool call or a wait. */
  name: string;
  agent: string;
  invocationId: string;
  /** The function call's id (tool calls and waits): one row per call on the page. */
  callId?: string;
  /** Milliseconds since the epoch, with fractions. */
  start: number;
  /** Absent while it runs (or waits). */
  end?: number;
  /** When a streaming model call sent its first chunk. */
  firstChunk?: number;
  /** What a wait waits for. */
  waitFor?: 'approval' | 'response';
  error?: string;
  /** The last progress a tool reported. */
  progress?: { fraction?: number; message?: string };
}

/** Everything from one user message up to the next, resumptions (approvals, answers) included. */
export interface TimelineTurn {
  index: number;
  start: number;
  /** The head of the user's message. */
  label: string;
  spans: TimelineSpan[];
  /** Spans left out because the turn had too many. */
  dropped: number;
}

/** What changed, for whoever shows it: the timeline, the last request, or the session (a run ended). */
export type RecorderChange = 'timeline' | 'request' | 'session';

/** Limits on what a recorder keeps in memory. */
export interface RecorderLimits {
  /** Sessions kept; the least recently active is forgotten first (default 200). */
  maxSessions: number;
  /** Turns kept a session (default 50). */
  maxTurns: number;
  /** Spans kept a turn (default 500). */
  maxSpans: number;
}

interface SessionRecord {
  turns: TimelineTurn[];
  request?: ModelRequestView;
  openModels: Map<string, TimelineSpan>;
  openTools: Map<string, TimelineSpan>;
  openWaits: Map<string, TimelineSpan>;
  /** Confirmation request call id → the id of the call it asks about. */
  confirmations: Map<string, string>;
  /** Long-running calls the model made whose tool has not answered yet: their wait starts when it has. */
  longRunning: Set<string>;
  /** Calls whose bar was opened by their progress (streaming tools): their function response ends it. */
  streamed: Set<string>;
  /**
   * Calls the model made that no tool callback has reported yet. A streaming tool (and a call to
   * an unknown tool) runs no before/after tool callbacks: its bar is made from the call, its
   * progress and its function response instead.
   */
  called: Map<string, { name: string; agent: string; invocationId: string; at: number }>;
}

let spanCounter = 0;

/**
 * Keeps, per session and in memory, the timeline of recent turns and the model request last sent:
 * what `devUiPlugin` records and the dev UI shows. Bounded by `RecorderLimits`.
 */
export class TimelineRecorder {
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly listeners = new Set<(ref: SessionRef, change: RecorderChange) => void>();

  constructor(private readonly limits: RecorderLimits) {}

  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (ref: SessionRef, change: RecorderChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A run starts: a new turn for a new message; answers to paused calls end their waits. */
  runStarted(ref: SessionRef, label: string | undefined, answeredIds: readonly string[], at: number): void {
    const record = this.record(ref);
    if (label !== undefined || record.turns.length === 0) {
      record.turns.push({ index: (record.turns.at(-1)?.index ?? 0) + 1, start: at, label: clipString(label ?? '', 120), spans: [], dropped: 0 });
      if (record.turns.length > this.limits.maxTurns) record.turns.splice(0, record.turns.length - this.limits.maxTurns);
    }
    for (const id of answeredIds) {
      const callId = record.confirmations.get(id) ?? id;
      record.confirmations.delete(id);
      const wait = record.openWaits.get(callId);
      if (!wait) continue;
      wait.end = at;
      record.openWaits.delete(callId);
    }
    this.emit(ref, 'timeline');
  }

  /** The invocation ended: whatever of it is still open (a call a callback skipped) ends now. */
  runEnded(ref: SessionRef, invocationId: string, at: number): void {
    const record = this.sessions.get(key(ref));
    if (!record) return;
    for (const open of [record.openModels, record.openTools])
      for (const [id, span] of open)
        if (span.invocationId === invocationId) {
          span.end = at;
          open.delete(id);
          record.streamed.delete(id);
        }
    for (const [id, asked] of record.called) if (asked.invocationId === invocationId) record.called.delete(id);
    this.emit(ref, 'session');
  }

  modelStarted(ref: SessionRef, invocationId: string, agent: string, request: LlmRequest, at: number): void {
    const record = this.record(ref);
    record.request = modelRequestView(request, agent, at);
    const modelKey = `${invocationId}\u0000${agent}`;
    const previous = record.openModels.get(modelKey);
    if (previous) previous.end = at;
    record.openModels.set(modelKey, this.addSpan(record, { kind: 'model', name: agent, agent, invocationId, start: at }));
    this.emit(ref, 'request');
    this.emit(ref, 'timeline');
  }

  /** A chunk (`partial`) or the whole response (or the error) came back. */
  modelResponded(ref: SessionRef, invocationId: string, agent: string, partial: boolean, at: number, error?: string): void {
    const record = this.sessions.get(key(ref));
    const modelKey = `${invocationId}\u0000${agent}`;
    const span = record?.openModels.get(modelKey);
    if (!record || !span) return;
    span.firstChunk ??= at;
    if (error !== undefined) span.error = clipString(error, 2_000);
    if (partial && error === undefined) return;
    span.end = at;
    record.openModels.delete(modelKey);
    this.emit(ref, 'timeline');
  }

  /** The model asked for these calls; bars for the ones no tool callback reports come from their progress and response. */
  callsMade(ref: SessionRef, invocationId: string, agent: string, calls: readonly { id: string; name: string }[], at: number): void {
    const record = this.record(ref);
    for (const call of calls) record.called.set(call.id, { name: call.name, agent, invocationId, at });
  }

  /**
   * A tool reported progress on a call: a streamed chunk, a fraction. A call no tool callback
   * started (a streaming tool) gets its bar now, from when the model asked for it.
   */
  toolProgressed(ref: SessionRef, callId: string, progress: { fraction?: number; message?: string }): void {
    const record = this.sessions.get(key(ref));
    const asked = record?.called.get(callId);
    if (record && asked && !record.openTools.has(callId)) {
      record.called.delete(callId);
      record.streamed.add(callId);
      record.openTools.set(callId, this.addSpan(record, { kind: 'tool', name: asked.name, agent: asked.agent, invocationId: asked.invocationId, callId, start: asked.at }));
    }
    this.toolProgress(ref, callId, progress);
  }

  /**
   * Function responses arrived. A streamed call's bar ends here; a call no callback and no
   * progress reported (a streaming tool without chunks, an unknown tool) gets its whole bar.
   */
  responsesArrived(ref: SessionRef, responses: readonly { id: string; error?: string }[], at: number): void {
    const record = this.sessions.get(key(ref));
    if (!record) return;
    let changed = false;
    for (const { id, error } of responses) {
      const asked = record.called.get(id);
      record.called.delete(id);
      if (record.streamed.delete(id)) {
        this.toolEnded(ref, id, at, error);
        continue;
      }
      if (!asked) continue;
      const span = this.addSpan(record, { kind: 'tool', name: asked.name, agent: asked.agent, invocationId: asked.invocationId, callId: id, start: asked.at, end: at });
      if (error !== undefined) span.error = clipString(error, 2_000);
      changed = true;
    }
    if (changed) this.emit(ref, 'timeline');
  }

  toolStarted(ref: SessionRef, invocationId: string, agent: string, callId: string, name: string, at: number): void {
    const record = this.record(ref);
    record.called.delete(callId); // the callbacks report this one
    this.endOpen(record.openTools, callId, at); // a call id seen again (a resumed call) starts a new bar
    record.openTools.set(callId, this.addSpan(record, { kind: 'tool', name, agent, invocationId, callId, start: at }));
    this.emit(ref, 'timeline');
  }

  toolEnded(ref: SessionRef, callId: string, at: number, error?: string): void {
    const record = this.sessions.get(key(ref));
    const span = record?.openTools.get(callId);
    if (!record || !span) return;
    span.end = at;
    if (error !== undefined) span.error = clipString(error, 2_000);
    record.openTools.delete(callId);
    if (record.longRunning.delete(callId) && error === undefined)
      this.openWait(record, { kind: 'wait', name: span.name, agent: span.agent, invocationId: span.invocationId, callId, waitFor: 'response', start: at });
    this.emit(ref, 'timeline');
  }

  toolProgress(ref: SessionRef, callId: string, progress: { fraction?: number; message?: string }): void {
    const span = this.sessions.get(key(ref))?.openTools.get(callId);
    if (!span) return;
    span.progress = {
      ...(typeof progress.fraction === 'number' && Number.isFinite(progress.fraction) ? { fraction: progress.fraction } : {}),
      ...(typeof progress.message === 'string' ? { message: clipString(progress.message, 200) } : {}),
    };
    this.emit(ref, 'timeline');
  }

  /** A call now waits for a person to approve it (asked by the confirmation request `confirmationCallId`). */
  approvalRequested(ref: SessionRef, invocationId: string, agent: string, callId: string, name: string, confirmationCallId: string, at: number): void {
    const record = this.record(ref);
    record.confirmations.set(confirmationCallId, callId);
    this.openWait(record, { kind: 'wait', name, agent, invocationId, callId, waitFor: 'approval', start: at });
    this.emit(ref, 'timeline');
  }

  /** The model made a long-running call: once its tool has answered, it waits for its real result. */
  longRunningCalled(ref: SessionRef, callId: string): void {
    this.record(ref).longRunning.add(callId);
  }

  /** The session's turns, oldest first (copies). */
  timeline(ref: SessionRef): TimelineTurn[] {
    const turns = this.sessions.get(key(ref))?.turns ?? [];
    return structuredClone(turns);
  }

  /** The request the session's model last received, if one was recorded. */
  lastRequest(ref: SessionRef): ModelRequestView | undefined {
    return this.sessions.get(key(ref))?.request;
  }

  private openWait(record: SessionRecord, init: Omit<TimelineSpan, 'id'>): void {
    if (!record.openWaits.has(init.callId!)) record.openWaits.set(init.callId!, this.addSpan(record, init));
  }

  private record(ref: SessionRef): SessionRecord {
    const id = key(ref);
    let record = this.sessions.get(id);
    if (record) {
      this.sessions.delete(id); // most recently active goes last
    } else {
      record = { turns: [], openModels: new Map(), openTools: new Map(), openWaits: new Map(), confirmations: new Map(), longRunning: new Set(), streamed: new Set(), called: new Map() };
      while (this.sessions.size >= this.limits.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
    }
    this.sessions.set(id, record);
    return record;
  }

  private addSpan(record: SessionRecord, init: Omit<TimelineSpan, 'id'>): TimelineSpan {
    let turn = record.turns.at(-1);
    if (!turn) {
      turn = { index: 1, start: init.start, label: '', spans: [], dropped: 0 };
      record.turns.push(turn);
    }
    const span: TimelineSpan = { id: `span-${++spanCounter}`, ...init };
    if (turn.spans.length < this.limits.maxSpans) turn.spans.push(span);
    else turn.dropped++;
    return span;
  }

  private endOpen(open: Map<string, TimelineSpan>, id: string, at: number): void {
    const span = open.get(id);
    if (span) span.end = at;
    open.delete(id);
  }

  private emit(ref: SessionRef, change: RecorderChange): void {
    for (const listener of this.listeners) {
      try {
        listener(ref, change);
      } catch {
        // a listener's failure is its own; recording goes on
      }
    }
  }
}

function key(ref: SessionRef): string {
  return JSON.stringify([ref.appName, ref.userId, ref.sessionId]);
}
