import type { FunctionDeclaration } from '../content/content.js';
import type { ReadonlyContext } from '../context/readonlyContext.js';
import type { RequestContext } from '../context/requestContext.js';
import type { ToolContext } from '../context/toolContext.js';
import type { LlmRequest } from '../model/llmRequest.js';

/** Any tool: a name, a description and whether it answers later (spec TC-1). */
export interface Tool {
  readonly name: string;
  readonly description: string;
  /** Its calls answer later (a ticket, an approval): the run pauses after calling it. */
  readonly isLongRunning?: boolean;
  /** Per-call time limit in milliseconds; overrides the agent's `toolTimeoutMs`. */
  readonly timeoutMs?: number;
  /**
   * Its effect may be repeated: after a crash while an approved or resumed call ran, the flow runs
   * it again instead of telling the model the call was interrupted.
   */
  readonly idempotent?: boolean;
}

/** A tool the flow can call (spec TC-3). */
export interface RunnableTool extends Tool {
  declaration(): FunctionDeclaration | undefined;
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown> | undefined>;
}

/** A tool whose result arrives as text chunks (spec TC-4); streaming wins over `run`. */
export interface StreamingTool extends Tool {
  declaration(): FunctionDeclaration | undefined;
  runStream(ctx: ToolContext, args: Record<string, unknown>): AsyncIterable<string>;
}

/**
 * A tool or toolset that changes each request before it goes to the model (spec TC-5). It runs
 * every model step; state it writes is saved with that step's model event. A processor with
 * nothing to wait for may return nothing: the flow then does not wait a turn for it (#24).
 */
export interface RequestProcessor {
  processRequest(ctx: RequestContext, request: LlmRequest): Promise<void> | void;
}

/**
 * A tool whose paused call resumes through it: when the client answers the paused long-running
 * call, the flow calls `resume` (with `ctx.resumeState` set) instead of handing the client's
 * answer to the model as is; what it returns is the response the model sees.
 */
export interface ResumableTool extends Tool {
  resume(ctx: ToolContext, response: Record<string, unknown>): Promise<Record<string, unknown> | undefined>;
}

/** A tool or toolset that holds resources (a connection, a process); `runner.close()` calls it. */
export interface Closable {
  close(): Promise<void>;
}


/** A tool that may answer `undefined` on purpose, leaving the response to someone else (TC-6). */
export interface ResponseDeferrer {
  defersResponse(): boolean;
}

/** Opts in to showing its result as text when it skips summarization (TC-7, FL-18). */
export interface SkipSummarizationResultDisplayer {
  displayResultOnSkipSummarization(): boolean;
}

/** A group of tools resolved per agent run, e.g. from an MCP server (spec TC-2). */
export interface Toolset {
  readonly name: string;
  tools(ctx: ReadonlyContext): Promise<Tool[]>;
  close?(): Promise<void>;
}

/** Whether the tool can be called with `run` (TC-3). */
export function isRunnableTool(tool: Tool): tool is RunnableTool {
  const t = tool as Partial<RunnableTool>;
  return typeof t.run === 'function' && typeof t.declaration === 'function';
}

/** Whether the tool streams its result (TC-4). */
export function isStreamingTool(tool: Tool): tool is StreamingTool {
  const t = tool as Partial<StreamingTool>;
  return typeof t.runStream === 'function' && typeof t.declaration === 'function';
}

/** Whether the tool or toolset processes requests (TC-5). */
export function isRequestProcessor<T extends object>(value: T): value is T & RequestProcessor {
  return typeof (value as Partial<RequestProcessor>).processRequest === 'function';
}

/** Whether the tool defers its response (TC-6). */
export function isResponseDeferrer<T extends object>(value: T): value is T & ResponseDeferrer {
  return typeof (value as Partial<ResponseDeferrer>).defersResponse === 'function';
}

/** Whether the tool shows its result when it skips summarization (TC-7). */
export function isSkipSummarizationResultDisplayer<T extends object>(
  value: T,
): value is T & SkipSummarizationResultDisplayer {
  return typeof (value as Partial<SkipSummarizationResultDisplayer>).displayResultOnSkipSummarization === 'function';
}

/** Whether the tool resumes its paused calls itself. */
export function isResumableTool(tool: Tool): tool is ResumableTool {
  return typeof (tool as Partial<ResumableTool>).resume === 'function';
}

/** Whether the tool or toolset holds resources to release with `close()`. */
export function isClosable<T extends object>(value: T): value is T & Closable {
  return typeof (value as Partial<Closable>).close === 'function';
}

/** Whether the value is a toolset rather than a tool. */
export function isToolset(value: Tool | Toolset): value is Toolset {
  return typeof (value as Partial<Toolset>).tools === 'function';
}
