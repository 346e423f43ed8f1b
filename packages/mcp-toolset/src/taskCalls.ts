import type { ToolContext } from '@adkit/flow';
import { ToolError } from '@adkit/tool';
import { CallToolResultSchema, CreateTaskResultSchema, type CallToolResult, type GetTaskResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpConnection } from './mcpConnection.js';
import type { McpSession } from './mcpSession.js';
import { withRequestSignal } from './withRequestSignal.js';

/** Options of `tasks` on `mcpToolset`: calls the server runs as MCP tasks (the protocol's task extension). */
export interface McpTasksOptions {
  /**
   * How long a call follows its task within the turn, in ms; a task still running after that
   * makes the call long-running: the run ends with it pending (`pendingMcpTasks`), and a later
   * answer to the call (`createTaskCheck`) looks again. Half the toolset's `timeoutMs` by
   * default, and less than it (the flow stops a call at `timeoutMs`).
   */
  waitMs?: number;
  /** Also run tools whose `execution.taskSupport` is `"optional"` as tasks (`"required"` ones always are). */
  optional?: boolean;
}

/** A call paused while its task runs on: the saved form (`ctx.setResumeState`). */
export interface TaskPause {
  readonly format: typeof TASK_PAUSE_FORMAT;
  readonly taskId: string;
}

export const TASK_PAUSE_FORMAT = 'adkit.mcpTask/1';

/** What a task call needs from its tool. */
export interface TaskTool {
  readonly name: string;
  readonly mcpName: string;
  readonly connection: () => McpConnection;
  readonly timeoutMs: number;
  /** `_meta` of the call (trace context, the app's entries). */
  meta(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown> | undefined>;
  convert(ctx: ToolContext, result: CallToolResult): Record<string, unknown>;
  failure(ctx: ToolContext, error: unknown): ToolError;
  /**
   * Fetches the result of a task waiting for input (`tasks/result`, which delivers the server's
   * requests for input to the client): through the toolset's elicitation when it has one.
   */
  inputRequired(ctx: ToolContext, fetch: (signal: AbortSignal, register: (session: McpSession) => () => void) => Promise<CallToolResult>): Promise<Record<string, unknown> | undefined>;
}

const MIN_POLL_MS = 50;
const MAX_POLL_MS = 30_000;
/** A server reporting more status changes than this in one call has its messages no longer reported. */
const MAX_REPORTS = 1_000;

/**
 * Calls run as MCP tasks, on the SDK's task API (`tools/call` with `task`, `tasks/get`,
 * `tasks/result`, `tasks/cancel`; @modelcontextprotocol/sdk 1.32 has them, under `experimental`):
 * the task is polled at the server's `pollInterval`, its status messages reported as progress,
 * cancelled (`tasks/cancel`) when the run is aborted or times out, and `input_required` answered
 * through elicitation. A task still running after `waitMs` pauses the call until a later answer.
 */
export class TaskCalls {
  constructor(private readonly options: McpTasksOptions) {}

  /** Whether a tool with this task support runs as a task. */
  runsAsTask(support: string | undefined): boolean {
    return support === 'required' || (support === 'optional' && this.options.optional === true);
  }

  /** Creates the task, then follows it. */
  async call(tool: TaskTool, ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    const meta = await tool.meta(ctx, args);
    const params = { name: tool.mcpName, arguments: args, ...(meta ? { _meta: meta } : {}), task: {} };
    let taskId: string;
    try {
      const created = await tool
        .connection()
        .use(
          (session) =>
            withRequestSignal(ctx.signal, (signal) => session.client.request({ method: 'tools/call', params }, CreateTaskResultSchema, { signal, timeout: tool.timeoutMs })),
          (failure) => failure === 'unsent',
        );
      taskId = created.task.taskId;
    } catch (error) {
      throw tool.failure(ctx, error);
    }
    return this.follow(tool, ctx, taskId);
  }

  /** A later answer to a call paused on its task: looks again (and pauses again if it still runs). */
  async resume(tool: TaskTool, ctx: ToolContext, pause: TaskPause): Promise<Record<string, unknown> | undefined> {
    return this.follow(tool, ctx, pause.taskId);
  }

  private async follow(tool: TaskTool, ctx: ToolContext, taskId: string): Promise<Record<string, unknown> | undefined> {
    const until = Date.now() + (this.options.waitMs ?? Math.floor(tool.timeoutMs / 2));
    // Every poll is a request the SDK leaves an abort listener on: each goes through
    // withRequestSignal, so a long wait does not pile listeners up on the call's signal.
    const timeout = tool.timeoutMs;
    let lastMessage: string | undefined;
    let reports = 0;
    try {
      for (;;) {
        const task: GetTaskResult = await tool
          .connection()
          .use((session) => withRequestSignal(ctx.signal, (signal) => session.client.experimental.tasks.getTask(taskId, { signal, timeout })), () => true);
        if (task.statusMessage !== undefined && task.statusMessage !== lastMessage && reports++ < MAX_REPORTS) {
          lastMessage = task.statusMessage;
          ctx.reportProgress({ message: task.statusMessage.slice(0, 1_000) });
        }
        if (task.status === 'completed') {
          const result = await tool
            .connection()
            .use((session) => withRequestSignal(ctx.signal, (signal) => session.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, { signal, timeout })), () => true);
          return tool.convert(ctx, result as CallToolResult);
        }
        if (task.status === 'failed' || task.status === 'cancelled')
          throw new ToolError(
            `Tool "${tool.name}" ran as an MCP task that ${task.status === 'failed' ? 'failed' : 'was cancelled by the server'}${task.statusMessage ? `: ${task.statusMessage.slice(0, 1_000)}` : '.'}`,
            { code: 'MCP_TASK_FAILED', toolName: tool.name },
          );
        if (task.status === 'input_required')
          return await tool.inputRequired(ctx, (signal, register) =>
            tool.connection().use(async (session) => {
              const unregister = register(session);
              try {
                return (await withRequestSignal(signal, (own) =>
                  session.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, { signal: own, timeout }),
                )) as CallToolResult;
              } finally {
                unregister();
              }
            }, () => true),
          );
        const wait = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, task.pollInterval ?? 1_000));
        if (Date.now() + wait > until) {
          ctx.setResumeState({ format: TASK_PAUSE_FORMAT, taskId } satisfies TaskPause);
          return undefined;
        }
        await sleep(wait, ctx.signal);
      }
    } catch (error) {
      if (ctx.signal.aborted) await this.cancel(tool, taskId);
      if (error instanceof ToolError) throw error;
      throw tool.failure(ctx, error);
    }
  }

  /** Best effort, bounded: the run is over either way. */
  private async cancel(tool: TaskTool, taskId: string): Promise<void> {
    try {
      await tool.connection().use((session) => session.client.experimental.tasks.cancelTask(taskId, { timeout: 2_000 }), () => false);
    } catch {
      // A task that already ended cannot be cancelled: nothing to do.
    }
  }
}

/** The saved task pause, when the state is one. */
export function taskPauseOf(state: unknown): TaskPause | undefined {
  const pause = state as Partial<TaskPause> | null | undefined;
  return pause?.format === TASK_PAUSE_FORMAT && typeof pause.taskId === 'string' && pause.taskId.length > 0 && pause.taskId.length <= 1_000
    ? (pause as TaskPause)
    : undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
