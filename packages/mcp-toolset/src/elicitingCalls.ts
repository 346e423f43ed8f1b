import { errorMessage, type ProgressReport, type ToolContext } from '@adkit/flow';
import { ToolError } from '@adkit/tool';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  ELICITATION_PAUSE_FORMAT,
  checkElicitationAnswer,
  elicitationDigest,
  type ElicitationPause,
  type McpElicitationAnswer,
  type McpElicitationOptions,
} from './elicitation.js';
import { LiveCall } from './liveCall.js';
import type { McpSession } from './mcpSession.js';

/** How one tool sends its call: on the session the connection gives, with the call's signal. */
export interface ElicitingTool {
  readonly name: string;
  /** Sends `tools/call` on a session; `register` puts the call on that session's router first. */
  send(
    ctx: ToolContext,
    args: Record<string, unknown>,
    signal: AbortSignal,
    register: (session: McpSession) => () => void,
    progress: (report: ProgressReport) => void,
  ): Promise<CallToolResult>;
  /** The model's result (or the thrown error) from the server's. */
  convert(ctx: ToolContext, result: CallToolResult): Record<string, unknown>;
  /** The error the model sees for a failed request. */
  failure(ctx: ToolContext, error: unknown): ToolError;
}

const DEFAULT_MAX_PER_CALL = 20;

/**
 * The calls of one toolset that take the server's requests for input (elicitation): answered in
 * place by the app's handler, or paused — the call's run ends with the call pending, the user
 * answers later, and `resume` gives the server the answer: to the very request when the call is
 * still alive in this process, else (another process, a restart, a timed-out request) by sending
 * the call again and answering its requests with the answers already given (`whenSessionLost`).
 */
export class ElicitingCalls {
  /** Paused calls still alive in this process, by function call id. */
  private readonly paused = new Map<string, LiveCall>();
  private readonly maxPerCall: number;

  constructor(readonly options: McpElicitationOptions) {
    this.maxPerCall = options.maxPerCall ?? DEFAULT_MAX_PER_CALL;
  }

  /** A first call: sent now; `undefined` when it paused for the user's input. */
  call(tool: ElicitingTool, ctx: ToolContext, args: Record<string, unknown>, replay: ElicitationPause['answered'] = []): Promise<Record<string, unknown> | undefined> {
    // Progress goes to the run driving the call; none while it is paused.
    return this.callWith(tool, ctx, (signal, register, progress) => tool.send(ctx, args, signal, register, progress), replay);
  }

  /** Like `call`, with another request than `tools/call` (a task's `tasks/result`). */
  callWith(
    tool: ElicitingTool,
    ctx: ToolContext,
    send: (signal: AbortSignal, register: (session: McpSession) => () => void, progress: (report: ProgressReport) => void) => Promise<CallToolResult>,
    replay: ElicitationPause['answered'] = [],
  ): Promise<Record<string, unknown> | undefined> {
    const live = new LiveCall(elicitationDigest);
    live.ctx = ctx;
    live.link(ctx.signal);
    live.start((signal) => send(signal, (session) => session.elicitations.add(live), (report) => live.ctx?.reportProgress(report)));
    return this.drive(tool, ctx, live, [...replay]);
  }

  /** The user's answer to a paused call (`tool.resume`). */
  async resume(tool: ElicitingTool, ctx: ToolContext, response: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    const pause = pauseOf(ctx.resumeState);
    const id = ctx.functionCallId;
    const live = this.paused.get(id);
    if (!pause) {
      throw new ToolError(`Tool "${tool.name}" has no request for input waiting for this answer; call the tool again if it is still needed.`, {
        code: 'MCP_ELICITATION_UNKNOWN',
        toolName: tool.name,
      });
    }
    let answer: McpElicitationAnswer;
    try {
      answer = await checkElicitationAnswer(pause.request, response);
    } catch (error) {
      if (live) this.drop(id, live, 'the answer was refused');
      throw new ToolError(
        `The answer to tool "${tool.name}"'s request for input was refused: ${errorMessage(error)}. The call was cancelled; call the tool again to retry.`,
        { code: 'MCP_ELICITATION_INVALID', toolName: tool.name, cause: error },
      );
    }
    const digest = elicitationDigest(pause.request);
    if (live && live.asking(digest)) {
      this.paused.delete(id);
      live.ctx = ctx;
      live.link(ctx.signal);
      live.answer(answer);
      return this.drive(tool, ctx, live, []);
    }
    if (live) this.drop(id, live, 'a different request was answered');
    if (this.options.whenSessionLost === 'fail')
      throw new ToolError(
        `The MCP server's request for input during the call to tool "${tool.name}" ended before the answer came (its session or request is gone); the call did not complete. Call the tool again to retry; the server will ask again.`,
        { code: 'MCP_ELICITATION_LOST', toolName: tool.name },
      );
    return this.call(tool, ctx, (ctx.functionCall?.args ?? {}) as Record<string, unknown>, [...pause.answered, { digest, answer }]);
  }

  /** Cancels every paused call (the toolset closes). */
  clear(): void {
    for (const [id, live] of this.paused) this.drop(id, live, 'the toolset closed');
  }

  private async drive(tool: ElicitingTool, ctx: ToolContext, live: LiveCall, replay: { digest: string; answer: McpElicitationAnswer }[]): Promise<Record<string, unknown> | undefined> {
    let warned = false;
    for (;;) {
      const step = await live.next();
      if (step.kind === 'done') return tool.convert(ctx, step.result);
      if (step.kind === 'failed') throw tool.failure(ctx, step.error);
      // A re-issued call asking what the user already answered gets that answer, in order.
      if (replay[0]?.digest === step.digest) {
        live.answer(replay.shift()!.answer);
        continue;
      }
      replay.length = 0;
      if (live.answered.length >= this.maxPerCall) {
        if (!warned) ctx.logger.warn(`mcpToolset: tool "${tool.name}" asked for input more than ${this.maxPerCall} times in one call (maxPerCall); answering cancel`);
        warned = true;
        live.answer({ action: 'cancel' });
        continue;
      }
      const handler = this.options.handler;
      if (handler) {
        let given: unknown;
        try {
          given = await handler(step.request, ctx);
        } catch (error) {
          ctx.logger.warn(`mcpToolset: the elicitation handler failed for tool "${tool.name}" (${errorMessage(error)}); answering cancel`);
          live.answer({ action: 'cancel' });
          continue;
        }
        if (given !== undefined) {
          try {
            live.answer(await checkElicitationAnswer(step.request, given));
          } catch (error) {
            ctx.logger.warn(`mcpToolset: the elicitation handler's answer for tool "${tool.name}" was refused (${errorMessage(error)}); answering cancel`);
            live.answer({ action: 'cancel' });
          }
          continue;
        }
      }
      // Pause: the run ends with this call pending; the answer comes through `resume`.
      live.unlink();
      live.ctx = undefined;
      const id = ctx.functionCallId;
      this.paused.get(id)?.cancel('paused again');
      this.paused.set(id, live);
      live.whenSettled(() => {
        if (this.paused.get(id) === live) this.paused.delete(id);
      });
      ctx.setResumeState({ format: ELICITATION_PAUSE_FORMAT, request: step.request, answered: live.answered.slice() } satisfies ElicitationPause);
      return undefined;
    }
  }

  private drop(id: string, live: LiveCall, reason: string): void {
    if (this.paused.get(id) === live) this.paused.delete(id);
    live.cancel(reason);
  }
}

/** The saved pause, when it is one (a store could hand back anything). */
export function pauseOf(state: unknown): ElicitationPause | undefined {
  const pause = state as Partial<ElicitationPause> | null | undefined;
  if (pause?.format !== ELICITATION_PAUSE_FORMAT || typeof pause.request !== 'object' || pause.request === null || !Array.isArray(pause.answered)) return undefined;
  const mode = (pause.request as { mode?: unknown }).mode;
  if (mode !== 'form' && mode !== 'url') return undefined;
  for (const entry of pause.answered) if (typeof entry?.digest !== 'string' || typeof entry.answer !== 'object' || entry.answer === null) return undefined;
  return pause as ElicitationPause;
}
