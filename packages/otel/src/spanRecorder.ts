import {
  REQUEST_CONFIRMATION_FUNCTION,
  getFunctionCalls,
  getFunctionResponses,
  isAdkitError,
  isRunnableTool,
  isStreamingTool,
  type CallbackContext,
  type Event,
  type FunctionResponse,
  type InvocationContext,
  type LlmRequest,
  type LlmResponse,
  type Tool,
  type ToolContext,
} from '@adkit/flow';
import { SpanKind, context as otelContext, trace, type Attributes, type Tracer } from '@opentelemetry/api';
import { toGenAiMessage, toGenAiMessages, toGenAiParts } from './genAiMessages.js';
import { InvocationSpans, type ToolSpan } from './invocationSpans.js';
import { resumedCalls, savePausedSpan } from './pausedSpans.js';
import { ATTR, requestAttributes, thrownMessage, type PauseReason, type SpanOutcome } from './spanAttributes.js';
import { SpanWriter } from './spanWriter.js';
import { publishToolTraceContext, withdrawToolTraceContext } from './toolTraceContext.js';

/** How a tool call ended, as the plugin learnt it. */
interface ToolEnding {
  outcome: SpanOutcome;
  /** What the model sees as the call's response (recorded with `captureContent`). */
  response?: unknown;
  /** The thrown error, for an `error` outcome from a callback. */
  thrown?: { error: unknown };
  /** The error text of a response, for an `error` outcome seen only in the response event. */
  responseError?: string;
  pauseReason?: PauseReason;
  /** The tool context, to save a paused span where the resume finds it. */
  context?: ToolContext;
}

/** What the recorder needs to know from the plugin's options. */
export interface SpanRecorderSettings {
  tracer: Tracer;
  captureContent: boolean;
  maxContentLength: number;
}

/**
 * Turns the flow's plugin callbacks into spans: `invoke_agent` per invocation, `chat` per model
 * call and `execute_tool` per tool call, both children of the invocation's span. Every span is
 * ended exactly once — by its callback, by the event that shows it is over (when another plugin
 * answered the callback first), or when the run ends, is cancelled or is left early.
 */
export class SpanRecorder {
  private readonly runs = new Map<string, InvocationSpans>();
  private readonly tracer: Tracer;
  private readonly write: SpanWriter;

  constructor(settings: SpanRecorderSettings) {
    this.tracer = settings.tracer;
    this.write = new SpanWriter(settings.captureContent, settings.maxContentLength);
  }

  /**
   * Opens the invocation's span, linked to the spans of the paused calls its message resumes. A
   * run whose span is not recorded (no SDK installed, or sampled out) is not followed further.
   */
  startRun(context: InvocationContext): void {
    this.endRun(context.invocationId, 'completed');
    const { session, agent } = context;
    const resumed = resumedCalls(context.userContent, session.state, session.events);
    const attributes: Attributes = {
      [ATTR.operationName]: 'invoke_agent',
      [ATTR.agentName]: this.write.name(agent.name),
      [ATTR.conversationId]: this.write.name(session.id),
      [ATTR.invocationId]: context.invocationId,
    };
    if (agent.description) attributes[ATTR.agentDescription] = this.write.text(agent.description);
    if (resumed.size > 0) attributes[ATTR.resumed] = true;
    const links = [...resumed.values()].flatMap((call) => (call.pausedSpan ? [{ context: call.pausedSpan }] : []));
    const active = otelContext.active();
    const span = this.tracer.startSpan(`invoke_agent ${this.write.name(agent.name)}`, { kind: SpanKind.INTERNAL, attributes, links }, active);
    if (!span.isRecording()) {
      span.end();
      return;
    }
    if (this.write.capturing(span) && context.userContent)
      this.write.content(span, ATTR.inputMessages, [toGenAiMessage(context.userContent)]);

    const { signal } = context;
    const onAbort = () => this.endRun(context.invocationId, abortOutcome(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    const release = () => signal.removeEventListener('abort', onAbort);
    this.runs.set(context.invocationId, new InvocationSpans(span, trace.setSpan(active, span), resumed, release));
    if (signal.aborted) onAbort();
  }

  /**
   * Ends the invocation's span and every span of it still open. `completed` means the run
   * finished: its span then says `paused` or `error` when an event said so.
   */
  endRun(invocationId: string, outcome: SpanOutcome): void {
    const run = this.runs.get(invocationId);
    if (!run) return;
    this.runs.delete(invocationId);
    run.release();
    for (const { span } of run.models.values()) this.write.end(span, outcome);
    run.models.clear();
    for (const [key, tool] of [...run.tools]) this.finishTool(run, key, tool, { outcome });

    const { span } = run;
    let final = outcome;
    if (outcome === 'completed' && run.pauseReason) final = 'paused';
    else if (outcome === 'completed' && run.errorCode) final = 'error';
    if (run.pauseReason) span.setAttribute(ATTR.pauseReason, run.pauseReason);
    if (final === 'error') this.write.error(span, run.errorCode ?? '_OTHER', run.errorMessage);
    if (run.usageSeen) {
      span.setAttribute(ATTR.inputTokens, run.inputTokens);
      span.setAttribute(ATTR.outputTokens, run.outputTokens);
    }
    this.write.end(span, final);
  }

  /** Opens a `chat` span for a model call. */
  startModel(context: CallbackContext, request: LlmRequest): void {
    const run = this.runs.get(context.invocationId);
    if (!run) return;
    const model = typeof request.model === 'string' && request.model ? this.write.name(request.model) : 'unknown';
    const attributes: Attributes = {
      [ATTR.operationName]: 'chat',
      [ATTR.agentName]: this.write.name(context.agentName),
      [ATTR.conversationId]: this.write.name(context.sessionId),
    };
    if (model !== 'unknown') attributes[ATTR.requestModel] = model;
    requestAttributes(request.config, attributes);
    const span = this.tracer.startSpan(`chat ${model}`, { kind: SpanKind.CLIENT, attributes }, run.parent);
    if (this.write.capturing(span)) {
      this.write.content(span, ATTR.inputMessages, toGenAiMessages(request.contents));
      const system = request.config?.systemInstruction?.parts;
      if (Array.isArray(system) && system.length > 0) this.write.content(span, ATTR.systemInstructions, toGenAiParts(system));
    }
    run.models.set(request, { span, agentName: context.agentName });
  }

  /** Ends a model call's span at its first complete (non-partial) response. */
  endModel(context: CallbackContext, request: LlmRequest, response: LlmResponse): void {
    if (response.partial) return;
    const run = this.runs.get(context.invocationId);
    const span = run?.models.get(request)?.span;
    if (!run || !span) return;
    run.models.delete(request);

    if (typeof response.modelVersion === 'string') span.setAttribute(ATTR.responseModel, this.write.name(response.modelVersion));
    if (typeof response.finishReason === 'string') span.setAttribute(ATTR.finishReasons, [this.write.name(response.finishReason)]);
    const usage = response.usageMetadata && typeof response.usageMetadata === 'object' ? response.usageMetadata : undefined;
    const input = count(usage?.promptTokenCount);
    // Like the conventions (and unlike genai), output tokens include the reasoning tokens.
    const [candidates, thoughts] = [count(usage?.candidatesTokenCount), count(usage?.thoughtsTokenCount)];
    const output = candidates === undefined && thoughts === undefined ? undefined : (candidates ?? 0) + (thoughts ?? 0);
    if (input !== undefined) span.setAttribute(ATTR.inputTokens, input);
    if (output !== undefined) span.setAttribute(ATTR.outputTokens, output);
    if (input !== undefined || output !== undefined) {
      run.inputTokens += input ?? 0;
      run.outputTokens += output ?? 0;
      run.usageSeen = true;
    }
    if (this.write.capturing(span))
      this.write.content(span, ATTR.outputMessages, response.content ? [toGenAiMessage(response.content, response.finishReason)] : []);
    if (response.errorCode) this.write.error(span, String(response.errorCode), response.errorMessage);
    this.write.end(span, response.errorCode ? 'error' : 'completed');
  }

  /** Ends a model call's span with the error the model threw. */
  failModel(context: CallbackContext, request: LlmRequest, error: unknown): void {
    const run = this.runs.get(context.invocationId);
    const span = run?.models.get(request)?.span;
    if (!run || !span) return;
    run.models.delete(request);
    this.write.thrown(span, error);
    this.write.end(span, 'error');
  }

  /** Opens an `execute_tool` span, linked to the call's paused span when this run resumes it. */
  startTool(tool: Tool, args: Record<string, unknown>, context: ToolContext): void {
    const run = this.runs.get(context.invocationId);
    if (run && !run.tools.has(context)) this.openTool(run, tool, args, context);
  }

  /**
   * Notes a tool's error: an unknown or uncallable tool's call ends here (only on-error callbacks
   * run for it); any other call ends in the after-callback, which tells whether it recovered.
   */
  toolError(tool: Tool, args: Record<string, unknown>, context: ToolContext, error: unknown): void {
    const run = this.runs.get(context.invocationId);
    if (!run) return;
    const entry = run.tools.get(context) ?? this.openTool(run, tool, args, context);
    entry.error = { thrown: error };
    const callable = isRunnableTool(tool) || isStreamingTool(tool) || isResumable(tool);
    if (!callable) this.finishTool(run, context, entry, { outcome: 'error', thrown: { error }, response: { error: thrownMessage(error) } });
  }

  /** Ends a tool call's span: completed, failed, or paused for a confirmation or as a long-running call. */
  endTool(tool: Tool, context: ToolContext, response: unknown, failure: { error: unknown } | undefined): void {
    const run = this.runs.get(context.invocationId);
    const entry = run?.tools.get(context);
    if (!run || !entry) return;
    const pauseReason = this.pauseOf(run, tool, context, response, failure !== undefined);
    this.finishTool(run, context, entry, {
      outcome: pauseReason ? 'paused' : failure ? 'error' : 'completed',
      response: failure ? { error: thrownMessage(failure.error) } : (response ?? null),
      ...(failure ? { thrown: failure } : {}),
      ...(pauseReason ? { pauseReason, context } : {}),
    });
  }

  /**
   * Reads what an event shows: a pause or an error of the run; calls of a model turn (a call whose
   * tool callbacks never ran — streaming tools, or another plugin answered first — gets its span
   * from the model event to its response); responses that end tool spans still open.
   */
  observeEvent(context: InvocationContext, event: Event): void {
    if (event.partial) return;
    const run = this.runs.get(context.invocationId);
    if (!run) return;
    const calls = getFunctionCalls(event);
    const responses = getFunctionResponses(event);
    if (event.errorCode) {
      run.errorCode = String(event.errorCode);
      run.errorMessage = event.errorMessage;
    }
    if (responses.length === 0 && run.models.size > 0)
      // The agent's model turn (or error) whose span no after-callback of this plugin ended: an
      // agent's before-callback answered, another plugin's callback answered first, or the call limit.
      for (const [request, { span, agentName }] of [...run.models]) {
        if (agentName !== event.author) continue;
        run.models.delete(request);
        if (event.errorCode) this.write.error(span, String(event.errorCode), event.errorMessage);
        this.write.end(span, event.errorCode ? 'error' : 'completed');
      }
    if ((event.longRunningToolIds?.length ?? 0) > 0)
      run.pauseReason ??= calls.some((call) => call.name === REQUEST_CONFIRMATION_FUNCTION) ? 'confirmation' : 'long_running';
    for (const call of calls)
      if (call.id && call.name !== REQUEST_CONFIRMATION_FUNCTION && !run.pending.has(call.id))
        run.pending.set(call.id, { call, seenAt: event.timestamp, traced: false });
    for (const response of responses) if (typeof response.id === 'string') this.answered(run, event, response);
  }

  private answered(run: InvocationSpans, event: Event, response: FunctionResponse): void {
    const id = response.id!;
    const ending = endingFromEvent(event, id, response);
    for (const [key, entry] of [...run.tools]) if (entry.callId === id) this.finishTool(run, key, entry, ending);
    const pending = run.pending.get(id);
    run.pending.delete(id);
    if (!pending || pending.traced) return;
    const { call } = pending;
    const name = this.write.name(call.name);
    const span = this.tracer.startSpan(
      `execute_tool ${name}`,
      { kind: SpanKind.INTERNAL, attributes: this.toolAttributes(name, id, undefined), startTime: pending.seenAt },
      run.parent,
    );
    if (this.write.capturing(span)) this.write.content(span, ATTR.toolArguments, call.args ?? {});
    this.finishTool(run, undefined, { span, callId: id }, ending);
  }

  private openTool(run: InvocationSpans, tool: Tool, args: Record<string, unknown>, context: ToolContext): ToolSpan {
    const callId = context.functionCallId;
    const name = this.write.name(tool.name);
    const attributes = this.toolAttributes(name, callId, tool.description);
    attributes[ATTR.agentName] = this.write.name(context.agentName);
    attributes[ATTR.conversationId] = this.write.name(context.sessionId);
    const confirmation = context.toolConfirmation;
    if (confirmation) attributes[ATTR.confirmed] = confirmation.confirmed === true;
    const resumed = run.resumed.get(callId);
    if (resumed) attributes[ATTR.resumed] = true;
    const span = this.tracer.startSpan(
      `execute_tool ${name}`,
      { kind: SpanKind.INTERNAL, attributes, links: resumed?.pausedSpan ? [{ context: resumed.pausedSpan }] : [] },
      run.parent,
    );
    if (this.write.capturing(span)) this.write.content(span, ATTR.toolArguments, args);
    const pending = run.pending.get(callId);
    if (pending) pending.traced = true;
    const entry: ToolSpan = { span, callId };
    run.tools.set(context, entry);
    if (span.isRecording()) publishToolTraceContext(context, span.spanContext());
    return entry;
  }

  private toolAttributes(name: string, callId: string, description: string | undefined): Attributes {
    const attributes: Attributes = {
      [ATTR.operationName]: 'execute_tool',
      [ATTR.toolName]: name,
      [ATTR.toolCallId]: this.write.name(callId),
      [ATTR.toolType]: 'function',
    };
    if (typeof description === 'string' && description) attributes[ATTR.toolDescription] = this.write.text(description);
    return attributes;
  }

  private finishTool(run: InvocationSpans, key: object | undefined, entry: ToolSpan, ending: ToolEnding): void {
    if (key) {
      run.tools.delete(key);
      withdrawToolTraceContext(key);
    }
    const { span } = entry;
    if (this.write.capturing(span) && ending.response !== undefined) this.write.content(span, ATTR.toolResult, ending.response);
    if (ending.outcome === 'paused' && ending.pauseReason) {
      span.setAttribute(ATTR.pauseReason, ending.pauseReason);
      if (ending.context && span.isRecording()) savePausedSpan(ending.context.state, entry.callId, span.spanContext());
    } else if (ending.outcome === 'error') {
      if (ending.thrown) this.write.thrown(span, ending.thrown.error);
      else this.write.error(span, '_OTHER', ending.responseError);
    } else if (ending.outcome === 'completed' && entry.error) {
      // An on-error callback (the agent's, or a later plugin's) recovered: keep the error visible.
      this.write.exception(span, entry.error.thrown);
      span.setAttribute(ATTR.recovered, true);
    }
    this.write.end(span, ending.outcome);
  }

  /** Why a call that just ended paused, if it did. */
  private pauseOf(
    run: InvocationSpans,
    tool: Tool,
    context: ToolContext,
    response: unknown,
    failed: boolean,
  ): PauseReason | undefined {
    const requested = context.actions.requestedToolConfirmations;
    if (requested && Object.hasOwn(requested, context.functionCallId)) return 'confirmation';
    if (failed) return undefined;
    // A long-running call pauses, unless this is the client's answer to it being handled.
    const answering = run.resumed.get(context.functionCallId)?.via === 'response';
    if (tool.isLongRunning === true && !(answering && response !== undefined)) return 'long_running';
    if (response === undefined && isResumable(tool)) return 'long_running';
    return undefined;
  }
}

/** What a response event says about one call. */
function endingFromEvent(event: Event, id: string, response: FunctionResponse): ToolEnding {
  const requested = event.actions?.requestedToolConfirmations;
  const body = response.response;
  if (requested && Object.hasOwn(requested, id)) return { outcome: 'paused', pauseReason: 'confirmation', response: body ?? null };
  if (event.longRunningToolIds?.includes(id)) return { outcome: 'paused', pauseReason: 'long_running', response: body ?? null };
  if (body && typeof body === 'object' && Object.hasOwn(body, 'error'))
    return { outcome: 'error', response: body, responseError: typeof body.error === 'string' ? body.error : undefined };
  return { outcome: 'completed', response: body ?? null };
}

/** `stopped` when the consumer left the run early, `cancelled` when the caller's signal aborted. */
function abortOutcome(reason: unknown): SpanOutcome {
  return isAdkitError(reason) && reason.code === 'RUN_CANCELLED' ? 'stopped' : 'cancelled';
}

function isResumable(tool: Tool): boolean {
  return typeof (tool as { resume?: unknown }).resume === 'function';
}

/** A token count as reported, or `undefined` when there is none (or it is not a count). */
function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
