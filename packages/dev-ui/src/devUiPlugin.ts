import { originalCallFrom } from '@adkit/confirmation';
import { ConfigError, errorMessage, getFunctionCalls, getFunctionResponses, type Content, type Logger, type Plugin } from '@adkit/flow';
import { TimelineRecorder, type RecorderLimits, type SessionRef } from './timelineRecorder.js';

/** Options of `devUiPlugin`. */
export interface DevUiPluginOptions {
  /** Sessions whose timeline and last model request are kept in memory (default 200). */
  maxSessions?: number;
  /** Turns kept per session (default 50). */
  maxTurns?: number;
  /** Model and tool calls kept per turn (default 500). */
  maxSpans?: number;
}

/** The plugin that records what the dev UI's timeline and request panel show. */
export interface DevUiPlugin extends Plugin {
  readonly name: 'adkit-dev-ui';
}

const recorders = new WeakMap<object, TimelineRecorder>();

/**
 * A runner plugin that records, in memory, the timing of every model and tool call and the
 * request each model call received, for `serveDevUi` to show. `serveDevUi({agents})` adds it
 * itself; with `serveDevUi({runner})`, put it in the runner's `plugins`. It never changes a run:
 * each callback returns nothing, and a failure inside it is logged, never thrown. It reads no
 * per-run context (`ctx.context`).
 */
export function devUiPlugin(options: DevUiPluginOptions = {}): DevUiPlugin {
  const limits: RecorderLimits = {
    maxSessions: positive('maxSessions', options.maxSessions, 200),
    maxTurns: positive('maxTurns', options.maxTurns, 50),
    maxSpans: positive('maxSpans', options.maxSpans, 500),
  };
  const recorder = new TimelineRecorder(limits);
  let warned = false;
  const guard = (logger: Logger, record: () => void): undefined => {
    try {
      record();
    } catch (error) {
      if (!warned) logger.warn(`adkit dev UI: recording failed (the run goes on): ${errorMessage(error)}`);
      warned = true;
    }
    return undefined;
  };
  const plugin: DevUiPlugin = {
    name: 'adkit-dev-ui',
    beforeRunCallback: ({ context }) =>
      guard(context.logger, () => {
        const { label, answeredIds } = describeMessage(context.userContent);
        recorder.runStarted(sessionOf(context), label, answeredIds, now());
      }),
    afterRunCallback: ({ context }) => guard(context.logger, () => recorder.runEnded(sessionOf(context), context.invocationId, now())),
    onEventCallback: ({ context, event }) =>
      guard(context.logger, () => {
        const ref = sessionOf(context);
        if (event.partial) {
          const progress = event.toolProgress;
          if (progress?.functionCallId) recorder.toolProgressed(ref, progress.functionCallId, progress);
          return;
        }
        const at = now();
        const calls = getFunctionCalls(event).flatMap((call) => (call.id && !originalCallFrom(call) ? [{ id: call.id, name: call.name }] : []));
        if (calls.length > 0) recorder.callsMade(ref, event.invocationId, event.author, calls, at);
        const responses = getFunctionResponses(event).flatMap((response) => {
          if (!response.id) return [];
          const error = (response.response as { error?: unknown } | undefined)?.error;
          return [{ id: response.id, ...(typeof error === 'string' ? { error } : {}) }];
        });
        if (responses.length > 0) recorder.responsesArrived(ref, responses, at);
        for (const call of getFunctionCalls(event)) {
          const original = originalCallFrom(call);
          if (original?.id && call.id) recorder.approvalRequested(ref, event.invocationId, event.author, original.id, original.name, call.id, now());
          else if (call.id && event.longRunningToolIds?.includes(call.id)) recorder.longRunningCalled(ref, call.id);
        }
      }),
    beforeModelCallback: ({ context, request }) =>
      guard(context.logger, () => recorder.modelStarted(refOf(context), context.invocationId, context.agentName, request, now())),
    afterModelCallback: ({ context, response }) =>
      guard(context.logger, () =>
        recorder.modelResponded(refOf(context), context.invocationId, context.agentName, response.partial === true, now(), response.errorMessage),
      ),
    onModelErrorCallback: ({ context, error }) =>
      guard(context.logger, () =>
        recorder.modelResponded(refOf(context), context.invocationId, context.agentName, false, now(), errorMessage(error)),
      ),
    beforeToolCallback: ({ tool, context }) =>
      guard(context.logger, () =>
        recorder.toolStarted(refOf(context), context.invocationId, context.agentName, context.functionCallId, tool.name, now()),
      ),
    afterToolCallback: ({ context, response, error }) =>
      guard(context.logger, () => {
        const failure = error !== undefined ? errorMessage(error) : typeof response?.error === 'string' ? response.error : undefined;
        recorder.toolEnded(refOf(context), context.functionCallId, now(), askedForApproval(context) ? undefined : failure);
      }),
    onToolErrorCallback: ({ context, error }) =>
      guard(context.logger, () =>
        recorder.toolEnded(refOf(context), context.functionCallId, now(), askedForApproval(context) ? undefined : errorMessage(error)),
      ),
  };
  recorders.set(plugin, recorder);
  return plugin;
}

/** The recorder behind a plugin made by `devUiPlugin`, or `undefined` for any other plugin. */
export function recorderOf(plugin: Plugin): TimelineRecorder | undefined {
  return recorders.get(plugin);
}

/** Whether the plugin was made by `devUiPlugin`. */
export function isDevUiPlugin(plugin: Plugin): plugin is DevUiPlugin {
  return recorders.has(plugin);
}

/** Whether the call asked for approval: its error is what the model is told while it waits, not a failure. */
function askedForApproval(context: { actions: { requestedToolConfirmations?: Record<string, unknown> }; functionCallId: string }): boolean {
  return Object.hasOwn(context.actions.requestedToolConfirmations ?? {}, context.functionCallId);
}

/** A new message's label (its text), or, for answers to paused calls, their ids. */
function describeMessage(content: Content | undefined): { label?: string; answeredIds: string[] } {
  const parts = content?.parts ?? [];
  const answeredIds = parts.flatMap((part) => (part.functionResponse?.id ? [part.functionResponse.id] : []));
  if (answeredIds.length > 0) return { answeredIds };
  const text = parts.map((part) => (typeof part.text === 'string' ? part.text : '')).join(' ').trim();
  return { label: text || '(no text)', answeredIds };
}

function sessionOf(context: { session: { appName: string; userId: string; id: string } }): SessionRef {
  return { appName: context.session.appName, userId: context.session.userId, sessionId: context.session.id };
}

function refOf(context: { appName: string; userId: string; sessionId: string }): SessionRef {
  return { appName: context.appName, userId: context.userId, sessionId: context.sessionId };
}

function now(): number {
  return performance.timeOrigin + performance.now();
}

function positive(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (Number.isInteger(value) && value > 0) return value;
  throw new ConfigError(`devUiPlugin: ${option} must be a positive integer, got ${String(value)}.`);
}
