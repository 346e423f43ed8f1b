import { MODEL_VIEW_METADATA } from './modelOutput.js';
import pLimit from 'p-limit';
import { callTool, resultAsJson, type ToolCallbacks, type ToolOutcome } from './callTool.js';
import { cloneData } from '../content/cloneData.js';
import { exceedsDepth, MAX_VALUE_DEPTH } from '../content/valueDepth.js';
import type { FunctionCall, Part } from '../content/content.js';
import { callSignal, RunAbortedError, type CallSignal } from './deadline.js';
import { errorMessage } from '../errors.js';
import { createEvent, type Event } from '../content/event.js';
import { createEventActions, isEmptyActions, type EventActions, type ToolConfirmation } from '../content/eventActions.js';
import { ToolCallContext } from '../context/flowContext.js';
import type { InvocationContext } from '../context/invocationContext.js';
import { mergeActions } from '../content/mergeActions.js';
import {
  isResumableTool,
  isResponseDeferrer,
  isRunnableTool,
  isSkipSummarizationResultDisplayer,
  isStreamingTool,
  type Tool,
} from '../tools/tool.js';
import type { ProgressReport } from '../context/toolContext.js';
import { notCallableToolMessage, unknownToolMessage } from '../tools/unknownToolMessage.js';
import { applyToolOutputBudget } from './toolOutputBudget.js';

/** What one agent step hands to the executor. */
export interface FunctionCallBatch {
  invocation: InvocationContext;
  /** Function calls in the model's order, each with an id. */
  calls: readonly FunctionCall[];
  /** The dispatch table (`LlmRequest.tools`, or the resolved tools on resume). */
  tools: Readonly<Record<string, Tool>>;
  callbacks: ToolCallbacks;
  /** Original call id → the confirmation given for it (HC-8). */
  confirmations?: Readonly<Record<string, ToolConfirmation>>;
  maxConcurrency?: number;
  /** The agent's default per-call time limit. */
  toolTimeoutMs?: number;
  /** Call id → what the paused call saved (`ctx.resumeState` on resume). */
  resumeStates?: Readonly<Record<string, unknown>>;
  /** Call id → the client's answer to a paused call of a resumable tool: `tool.resume` runs instead of `run`. */
  resumeResponses?: Readonly<Record<string, Record<string, unknown>>>;
  /** Call id → why the call is answered with an error without running (bad arguments, interrupted). */
  refusals?: Pick<ReadonlyMap<string, string>, 'get'>;
}

interface CallRecord {
  call: FunctionCall;
  tool?: Tool;
  outcome: ToolOutcome;
  /** False when the call answers later (long-running or deferred with no result, FL-15). */
  respond: boolean;
  /** True when a resumable tool paused this call on its own: the client must answer it. */
  paused?: boolean;
  actions: EventActions;
}

/**
 * Executes a step's function calls concurrently (FL-9), bounded by `maxConcurrency`, and yields
 * partial progress events while they run, then one event merging every response in the model's
 * original order (FL-14). Yields nothing more once the run is cancelled. The calls start at the
 * first `next()`.
 */
export function executeFunctionCalls(batch: FunctionCallBatch): AsyncIterableIterator<Event> {
  return new FunctionCallRun(batch);
}

const DONE: IteratorResult<Event, undefined> = Object.freeze({ done: true, value: undefined });

/**
 * `executeFunctionCalls`' events, one `next()` each. Written by hand, not as an async generator: a
 * generator layer cost every step with calls about 2 KB and half a microsecond more (#24). Read by
 * one `for await` at a time, as the flow reads it: unlike a generator, it does not queue a second
 * `next()` made before the first one settled.
 */
class FunctionCallRun implements AsyncIterableIterator<Event> {
  private readonly progress: Event[] = [];
  private wake?: () => void;
  private started = false;
  private settled = false;
  private finished = false;
  private records?: CallRecord[];

  constructor(private readonly batch: FunctionCallBatch) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Event, undefined>> {
    try {
      return this.step();
    } catch (error) {
      this.finished = true;
      return Promise.reject(error);
    }
  }

  /** Stops yielding; the calls still running end with the run's cancellation, as before. */
  return(): Promise<IteratorResult<Event, undefined>> {
    this.finished = true;
    this.wake = undefined;
    return Promise.resolve(DONE);
  }

  private step(): Promise<IteratorResult<Event, undefined>> {
    if (!this.started) this.start();
    const { invocation } = this.batch;
    if (this.finished || invocation.aborted) return this.return();
    if (this.progress.length > 0) return Promise.resolve({ done: false, value: this.progress.shift()! });
    if (!this.settled) {
      // Woken by a progress report or by the last call settling.
      return new Promise<void>((resolve) => (this.wake = resolve)).then(() => {
        this.wake = undefined;
        return this.next();
      });
    }
    // Settled means `all`'s handlers ran: nothing is left to wait for (no tick more per step, #24).
    this.finished = true;
    const merged = this.records && mergeResponses(invocation, this.records);
    return Promise.resolve(merged ? { done: false, value: merged } : DONE);
  }

  private start(): void {
    this.started = true;
    const { batch } = this;
    const { invocation } = batch;
    const onProgress = (call: FunctionCall, report: ProgressReport) => {
      this.progress.push(
        createEvent({
          invocationId: invocation.invocationId,
          author: invocation.agentName,
          branch: invocation.branch,
          partial: true,
          toolProgress: { functionCallId: call.id ?? '', toolName: call.name, ...report },
        }),
      );
      this.wake?.();
    };
    // A queue only when maxConcurrency holds some calls back; otherwise every call starts at once (#24).
    const bound = batch.maxConcurrency && batch.maxConcurrency > 0 ? batch.maxConcurrency : Infinity;
    const queue = bound < batch.calls.length ? pLimit(bound) : undefined;
    const limit = <T>(work: () => Promise<T>): Promise<T> => (queue ? queue(work) : work());
    // The agent's maxToolOutputBytes: a larger result is saved as an artifact, the model gets its
    // head. Without one, a call's record is taken as it comes (no promise more per call, #24).
    const budgeted = (invocation.agent as { maxToolOutputBytes?: number }).maxToolOutputBytes !== undefined;
    const budget = async (executed: CallRecord): Promise<CallRecord> => {
      executed.outcome = await applyToolOutputBudget(invocation, executed);
      return executed;
    };
    const run = (call: FunctionCall) =>
      limit(() => {
        const executing = executeCall(batch, call, onProgress);
        return budgeted ? executing.then(budget) : executing;
      });
    const failed = () => this.settle(undefined);
    // One call, the common step, needs no `Promise.all` (its array, promise and handlers, #24).
    if (batch.calls.length === 1) void run(batch.calls[0]!).then((record) => this.settle([record]), failed);
    else void Promise.all(batch.calls.map(run)).then((records) => this.settle(records), failed);
  }

  /** Every call is done (`records`), or one threw (undefined: the run was cancelled). */
  private settle(records: CallRecord[] | undefined): void {
    this.records = records;
    this.settled = true;
    this.wake?.();
  }
}

async function executeCall(
  batch: FunctionCallBatch,
  call: FunctionCall,
  onProgress: (call: FunctionCall, report: ProgressReport) => void,
): Promise<CallRecord> {
  // A call still queued behind `maxConcurrency` when the run is cancelled never starts.
  if (batch.invocation.aborted) throw new RunAbortedError();
  const id = call.id ?? '';
  const tool = Object.hasOwn(batch.tools, call.name) ? batch.tools[call.name] : undefined;
  const actions = createEventActions();
  const record = (outcome: ToolOutcome, respond = true, paused = false): CallRecord => {
    // State a store could not hold is refused here, as an error the model sees (#9 point 8).
    if (exceedsDepth(actions.stateDelta, MAX_VALUE_DEPTH + 1)) {
      actions.stateDelta = {};
      return {
        call,
        tool,
        outcome: { error: new Error(`Tool "${call.name}" wrote state nested deeper than ${MAX_VALUE_DEPTH} levels; the change was not saved.`) },
        respond: true,
        actions,
      };
    }
    return { call, tool, outcome, respond, paused, actions };
  };
  const refusal = batch.refusals?.get(id);
  if (refusal !== undefined) return record({ error: new Error(refusal) });

  // The handler gets its own copy: changing `args` changes neither the saved call nor the next request.
  const args = cloneData(call.args ?? {});
  const timeoutMs = tool?.timeoutMs ?? batch.toolTimeoutMs;
  const cancel = callSignal(batch.invocation.cancellation, timeoutMs);
  try {
    const context = new ToolCallContext(batch.invocation, {
      actions,
      functionCall: call,
      functionCallId: id,
      toolConfirmation: ownEntry(batch.confirmations, id),
      resumeState: ownEntry(batch.resumeStates, id),
      // Read lazily: a call's controller is made only for a tool that looks at its signal (#24).
      signal: () => cancel.signal,
      onProgress: (report) => onProgress(call, report),
    });

    if (!tool || (!isStreamingTool(tool) && !isRunnableTool(tool) && !isResumableTool(tool))) {
      const message = tool ? notCallableToolMessage(call.name) : unknownToolMessage(call.name, Object.keys(batch.tools));
      const placeholder: Tool = tool ?? { name: call.name, description: 'Tool not found' };
      return record(await recoverUnknown(batch, placeholder, args, context, new Error(message)));
    }

    const resumeResponse = ownEntry(batch.resumeResponses, id);
    if (resumeResponse && isResumableTool(tool)) {
      const response = cloneData(resumeResponse);
      const outcome = await callTool(tool, args, context, batch.callbacks, () =>
        cancel.until(tool.resume(context, response), tool.name),
      );
      const pausedAgain = outcome.error === undefined && outcome.result === undefined;
      return record(outcome, !pausedAgain, pausedAgain);
    }

    if (isStreamingTool(tool)) {
      return record(await runStream(tool.name, () => tool.runStream(context, args), cancel, (chunk) =>
        context.reportProgress({ message: chunk }),
      ));
    }
    if (!isRunnableTool(tool)) return record({ error: new Error(notCallableToolMessage(call.name)) });

    const outcome = await callTool(tool, args, context, batch.callbacks, () =>
      cancel.until(tool.run(context, args), tool.name),
    );
    const noAnswer = outcome.error === undefined && outcome.result === undefined;
    const defers = isResponseDeferrer(tool) && tool.defersResponse();
    const paused = noAnswer && !tool.isLongRunning && isResumableTool(tool);
    return record(outcome, !(noAnswer && (defers || tool.isLongRunning || paused)), paused);
  } finally {
    // Unlinks the call from the run's cancellation.
    cancel.release();
  }
}

/** An unknown tool runs only the on-error callbacks, plugins first (FL-11 step 2). */
async function recoverUnknown(
  batch: FunctionCallBatch,
  tool: Tool,
  args: Record<string, unknown>,
  context: ToolCallContext,
  error: Error,
): Promise<ToolOutcome> {
  try {
    for (const chain of [batch.callbacks.onError.plugins, batch.callbacks.onError.agent])
      for (const callback of chain) {
        const result = await callback({ tool, args, context, error });
        // The same normalisation as any other result (FT-5 wrapping, JSON only).
        if (result !== undefined && result !== null) return { result: resultAsJson(tool.name, result) };
      }
  } catch (thrown) {
    return { error: thrown };
  }
  return { error };
}

/** Concatenates a streaming tool's chunks into `{result}`; the first error wins (FL-12). */
async function runStream(
  toolName: string,
  open: () => AsyncIterable<string>,
  cancel: CallSignal,
  onChunk: (chunk: string) => void,
): Promise<ToolOutcome> {
  const chunks: string[] = [];
  let iterator: AsyncIterator<string> | undefined;
  try {
    // Inside the try: a runStream that is no generator may throw at once, or return no stream.
    const stream: unknown = open();
    const start = (stream as Partial<AsyncIterable<string>> | null | undefined)?.[Symbol.asyncIterator];
    if (typeof start !== 'function')
      return {
        error: new Error(
          `Tool "${toolName}" failed: its runStream returned ${describeValue(stream)}, not an async iterable; write it as an async generator (async function*).`,
        ),
      };
    iterator = start.call(stream) as AsyncIterator<string>;
    while (true) {
      const next = await cancel.until(iterator.next(), toolName);
      if (next.done) break;
      const chunk = String(next.value);
      chunks.push(chunk);
      onChunk(chunk);
    }
    iterator = undefined;
    return { result: { result: chunks.join('') } };
  } catch (thrown) {
    if (thrown instanceof RunAbortedError) throw thrown;
    return { error: thrown ?? new Error(`Tool "${toolName}" failed: its stream threw ${String(thrown)}.`) };
  } finally {
    // Leaving early (error, timeout, abort) tells the tool's generator to clean up.
    // (`return` of a hand-written iterator may throw, or return no promise.)
    try {
      if (iterator?.return) void Promise.resolve(iterator.return()).catch(() => {});
    } catch {
      // The stream is left either way.
    }
  }
}

/** What a value is, for messages: its type, never its content. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

/** The message the model sees for a failed call. */
function modelErrorMessage(toolName: string, error: unknown): string {
  return error instanceof Error ? errorMessage(error) : `Tool "${toolName}" failed: ${errorMessage(error)}`;
}

function mergeResponses(invocation: InvocationContext, records: readonly CallRecord[]): Event | undefined {
  const parts: Part[] = [];
  const visible: Part[] = [];
  for (const { call, tool, outcome, respond } of records) {
    if (!respond) continue;
    const response =
      outcome.error !== undefined ? { error: modelErrorMessage(call.name, outcome.error) } : (outcome.result ?? {});
    const extra = outcome.error === undefined ? outcome.parts : undefined;
    const part: Part = { functionResponse: { id: call.id, name: call.name, response, ...(extra ? { parts: extra } : {}) } };
    // The model's view (toModelOutput) rides with the part; buildContents sends it instead.
    if (outcome.error === undefined && outcome.modelView) part.partMetadata = { [MODEL_VIEW_METADATA]: outcome.modelView };
    parts.push(part);
    if (tool && isSkipSummarizationResultDisplayer(tool) && tool.displayResultOnSkipSummarization())
      visible.push(...visibleResult(response));
  }
  const actions = mergeActions(records.map((r) => r.actions));
  const paused = records.flatMap((r) => (r.paused && r.call.id ? [r.call.id] : []));
  if (parts.length === 0 && isEmptyActions(actions) && paused.length === 0) return undefined;
  // FL-18: a tool that opts in shows its result when the turn ends without summarization.
  const showVisible =
    actions.skipSummarization && Object.keys(actions.requestedToolConfirmations ?? {}).length === 0;
  return createEvent({
    invocationId: invocation.invocationId,
    author: invocation.agentName,
    branch: invocation.branch,
    content: parts.length > 0 ? { role: 'user', parts: showVisible ? [...parts, ...visible] : parts } : undefined,
    actions,
    // Calls a resumable tool paused on its own: the turn ends and the client answers them (FL-15).
    longRunningToolIds: paused.length > 0 ? paused : undefined,
  });
}

function visibleResult(response: Record<string, unknown>): Part[] {
  if (Object.hasOwn(response, 'error') || Object.keys(response).length === 0) return [];
  const keys = Object.keys(response);
  const text =
    keys.length === 1 && keys[0] === 'result' && typeof response.result === 'string'
      ? response.result
      : JSON.stringify(response);
  return [{ text }];
}

/** The table's own entry for `id`: none for a missing table, nor for an inherited key (no `{}` made per call, #24). */
function ownEntry<T>(table: Readonly<Record<string, T>> | undefined, id: string): T | undefined {
  return table !== undefined && Object.hasOwn(table, id) ? table[id] : undefined;
}
