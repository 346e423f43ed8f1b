import { withResponseParts, type FunctionDeclaration, type ProgressReport, type ToolContext } from '@adkit/flow';
import { BaseTool, ToolError, confirmationGate } from '@adkit/tool';
import type { CallToolResult, Progress, Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import { callMeta, type McpCallMeta } from './callMeta.js';
import type { ElicitingCalls, ElicitingTool } from './elicitingCalls.js';
import { formatContent } from './formatContent.js';
import { taskPauseOf, type TaskCalls, type TaskTool } from './taskCalls.js';
import type { McpSession } from './mcpSession.js';
import { withRequestSignal } from './withRequestSignal.js';
import { requestError } from './requestError.js';
import type { RetryPolicy } from './mcpConnection.js';
import type { HeaderSet, ServerConnections } from './serverConnections.js';
import { withoutMediaData } from './structuredOutput.js';

/**
 * Whether a call needs the user's approval first (HC-2): a flag, or a function of the tool's name
 * and the model's raw arguments, asked on each first call (MCP-7).
 */
export type McpRequireConfirmation =
  | boolean
  | ((toolName: string, args: Record<string, unknown>, ctx: ToolContext) => boolean | Promise<boolean>);

/** What every tool of one toolset shares. */
export interface McpToolShared {
  readonly connections: ServerConnections;
  readonly requireConfirmation: McpRequireConfirmation;
  readonly timeoutMs: number;
  /** MCP tasks: how tools that run as tasks are followed. */
  readonly tasks: TaskCalls;
  /** The app's per-call `_meta` entries. */
  readonly meta?: McpCallMeta;
  /** Set when the toolset takes the server's requests for input. */
  readonly elicitation?: ElicitingCalls;
}

/** Progress messages longer than this are cut: they become events the client receives. */
const MAX_PROGRESS_MESSAGE = 1_000;

/** MCP-4: a call that may have reached the server is sent again only by a retry-safe tool. */
const RETRY_ALWAYS: RetryPolicy = () => true;
const RETRY_UNSENT: RetryPolicy = (failure) => failure === 'unsent';

/**
 * One tool of an MCP server as an adkit tool (MCP-6, MCP-7): declared with the server's input and
 * output schemas as JSON Schema, called over the toolset's connection for the header set it was
 * listed with. Results become `{output}`: the structured content when there is one, else the
 * content as text (MCP-8); `isError` results and failures become errors for the model.
 */
export class McpTool extends BaseTool {
  /** The tool's name on the server (the adkit name may differ, see `toFunctionName`). */
  readonly mcpName: string;
  /**
   * When a call cut by a broken connection is sent again on a new session (MCP-4): always when
   * the annotations say a repeat is harmless, else only when it never left.
   */
  private readonly retry: RetryPolicy;
  /** Whether its calls run as MCP tasks (its `taskSupport` and the toolset's `tasks` options). */
  private readonly runsAsTask: boolean;
  private readonly declared: FunctionDeclaration;
  /** `execution.taskSupport` of the definition: whether it may or must run as an MCP task. */
  readonly taskSupport?: string;

  constructor(
    definition: SdkTool,
    name: string,
    private readonly headerSet: HeaderSet,
    protected readonly shared: McpToolShared,
  ) {
    const description = definition.description ?? definition.title ?? definition.annotations?.title ?? '';
    const annotations = definition.annotations;
    const safe = annotations?.readOnlyHint === true || annotations?.idempotentHint === true;
    // A call paused once more (a second question, a task still running) is resumed again by the
    // flow whatever this says. `idempotent` only decides whether a resume cut short by a crash runs
    // again: safe for a look at a task (tasks/get), not for a re-issued call (the server would run
    // the tool's effects again), so an interrupted elicitation resume is reported, at most once.
    const resumesSafely = shared.tasks.runsAsTask(definition.execution?.taskSupport);
    super({ name, description, timeoutMs: shared.timeoutMs, idempotent: safe || resumesSafely });
    this.retry = safe ? RETRY_ALWAYS : RETRY_UNSENT;
    this.runsAsTask = resumesSafely;
    this.mcpName = definition.name;
    const support = definition.execution?.taskSupport;
    if (support !== undefined) this.taskSupport = support;
    const declared: FunctionDeclaration = { name, description };
    if (definition.inputSchema !== undefined) declared.parametersJsonSchema = definition.inputSchema;
    if (definition.outputSchema !== undefined) declared.responseJsonSchema = definition.outputSchema;
    this.declared = Object.freeze(declared);
  }

  declaration(): FunctionDeclaration {
    return this.declared;
  }

  run(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    const shared = this.shared;
    // The common call (no confirmation, task or elicitation) goes straight to `call` (#24).
    if (shared.requireConfirmation !== false || ctx.toolConfirmation !== undefined || this.runsAsTask || shared.elicitation !== undefined)
      return this.gatedRun(ctx, args);
    return this.call(ctx, args);
  }

  /** `run` with confirmation first, as a task, or taking the server's requests for input. */
  private async gatedRun(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    const confirm = this.shared.requireConfirmation;
    if (confirm !== false || ctx.toolConfirmation !== undefined)
      await confirmationGate(ctx, this.name, typeof confirm === 'function' ? () => confirm(this.name, args, ctx) : confirm);
    if (this.runsAsTask) return this.shared.tasks.call(this.tasking, ctx, args);
    const elicitation = this.shared.elicitation;
    if (elicitation) return elicitation.call(this.calling, ctx, args);
    return this.call(ctx, args);
  }

  /** One `tools/call`, its result converted (MCP-7). */
  private async call(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    let result: CallToolResult;
    try {
      result = await this.send(ctx, args, ctx.signal);
    } catch (error) {
      throw this.failure(ctx, error);
    }
    return this.convert(ctx, result);
  }

  /** How the toolset's eliciting calls send, convert and report this tool's calls. */
  protected readonly calling: ElicitingTool = {
    name: this.name,
    send: (ctx, args, signal, register, progress) => this.send(ctx, args, signal, register, progress),
    convert: (ctx, result) => this.convert(ctx, result),
    failure: (ctx, error) => this.failure(ctx, error),
  };

  /** How the toolset's task calls reach this tool's server, convert and report. */
  protected get tasking(): TaskTool {
    return (this.taskTool ??= this.makeTaskTool());
  }

  private taskTool?: TaskTool;

  private makeTaskTool(): TaskTool {
    return {
      name: this.name,
      mcpName: this.mcpName,
      connection: () => this.shared.connections.connection(this.headerSet),
      timeoutMs: this.shared.timeoutMs,
      meta: async (ctx, args) => callMeta(this.shared.meta, this.name, args, ctx),
      convert: (ctx, result) => this.convert(ctx, result),
      failure: (ctx, error) => this.failure(ctx, error),
      inputRequired: async (ctx, fetch) => {
        const elicitation = this.shared.elicitation;
        if (elicitation) return elicitation.callWith(this.calling, ctx, (signal, register) => fetch(signal, register));
        try {
          return this.convert(ctx, await fetch(ctx.signal, () => () => {}));
        } catch (error) {
          throw this.failure(ctx, error);
        }
      },
    };
  }

  /**
   * Sends `tools/call` with the call's `_meta` (trace context, the app's entries) and progress
   * reported on the call's context (or to `progress`); sent again on a new session only when it
   * never left, or the tool is idempotent (MCP-4). Each request gets `signal` (the caller's) or a
   * signal linked to it (`withRequestSignal`). Without a meta hook and on an open connection,
   * nothing is awaited before the SDK's request (#24). Rejects, never throws.
   */
  private send(
    ctx: ToolContext,
    args: Record<string, unknown>,
    signal: AbortSignal,
    register?: (session: McpSession) => () => void,
    progress?: (report: ProgressReport) => void,
  ): Promise<CallToolResult> {
    try {
      const meta = callMeta(this.shared.meta, this.name, args, ctx);
      if (meta instanceof Promise) return meta.then((entries) => this.request(ctx, args, signal, entries, register, progress));
      return this.request(ctx, args, signal, meta, register, progress);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** `send` once the `_meta` is known: the SDK's `callTool` on the connection's session, with the retry policy. */
  private request(
    ctx: ToolContext,
    args: Record<string, unknown>,
    signal: AbortSignal,
    meta: Record<string, unknown> | undefined,
    register: ((session: McpSession) => () => void) | undefined,
    progress: ((report: ProgressReport) => void) | undefined,
  ): Promise<CallToolResult> {
    const params = meta === undefined ? { name: this.mcpName, arguments: args } : { name: this.mcpName, arguments: args, _meta: meta };
    const onprogress =
      progress === undefined
        ? (notification: Progress) => ctx.reportProgress(progressReport(notification))
        : (notification: Progress) => progress(progressReport(notification));
    const timeout = this.shared.timeoutMs;
    const callTool = (session: McpSession) =>
      withRequestSignal(signal, (own) => session.client.callTool(params, undefined, { signal: own, timeout, onprogress }) as Promise<CallToolResult>);
    const connection = this.shared.connections.connection(this.headerSet);
    if (register === undefined) return connection.use(callTool, this.retry);
    return connection.use(async (session) => {
      const unregister = register(session);
      try {
        return await callTool(session);
      } finally {
        unregister();
      }
    }, this.retry);
  }

  private failure(ctx: ToolContext, error: unknown): ToolError {
    if (error instanceof ToolError) return error;
    return requestError(ctx, this.name, this.shared.timeoutMs, `failed to call MCP tool "${this.mcpName}" with err: `, error);
  }

  /** MCP-7 steps 3–5: an error for `isError`, else `{output}`, its images and audio beside it as response parts (#30). */
  private convert(ctx: ToolContext, result: CallToolResult): Record<string, unknown> {
    const { text, media } = formatContent(result.content);
    if (result.isError === true)
      throw new ToolError(text ? `Tool execution failed. Details: ${text}` : 'Tool execution failed.', {
        code: 'MCP_TOOL_ERROR',
        toolName: this.name,
      });
    const structured = result.structuredContent;
    const output = structured !== undefined && structured !== null ? withoutMediaData(structured) : text;
    if (media.length === 0) return { output };
    return withResponseParts({ output }, media.map((item) => ({ inlineData: { mimeType: item.mimeType, data: item.data } })));
  }
}

/**
 * An MCP tool of a toolset that takes the server's requests for input: a call paused for the
 * user's answer resumes through `resume` (the flow calls it with the client's answer).
 */
export class ResumableMcpTool extends McpTool {
  /**
   * A later answer to a paused call: for a call waiting on its MCP task, a nudge to look again;
   * else the user's answer to the server's request for input (`{action, content?}`).
   */
  async resume(ctx: ToolContext, response: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    const task = taskPauseOf(ctx.resumeState);
    if (task) return this.shared.tasks.resume(this.tasking, ctx, task);
    const elicitation = this.shared.elicitation;
    if (!elicitation)
      throw new ToolError(`Tool "${this.name}" has nothing waiting for this answer; call the tool again if it is still needed.`, {
        code: 'MCP_NOTHING_PAUSED',
        toolName: this.name,
      });
    return elicitation.resume(this.calling, ctx, response);
  }
}

/** A progress notification as a progress report: its message, and a fraction when it has a total. */
export function progressReport(progress: Progress): ProgressReport {
  const report: ProgressReport = {};
  const { progress: done, total, message } = progress;
  if (typeof total === 'number' && total > 0 && Number.isFinite(total) && Number.isFinite(done))
    report.fraction = Math.min(1, Math.max(0, done / total));
  if (typeof message === 'string' && message.length > 0)
    report.message = message.length > MAX_PROGRESS_MESSAGE ? `${message.slice(0, MAX_PROGRESS_MESSAGE)}…` : message;
  return report;
}
