import type { ToolContext } from '@adkit/flow';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpElicitationAnswer, McpElicitationRequest } from './elicitation.js';
import type { ElicitationTarget } from './elicitationRouter.js';

/** What a call in flight did next: answered, failed, or asked the user for input. */
export type CallStep =
  | { readonly kind: 'done'; readonly result: CallToolResult }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'asked'; readonly request: McpElicitationRequest; readonly digest: string };

/**
 * One `tools/call` that may ask for input, alive across a pause: the request stays open on the
 * server's session while the user takes their time, so an answer given in this process resumes
 * the very same call. It has its own signal, linked to the signal of whichever run drives it
 * (the first run until it pauses, then the run that resumes it), so the end of the first run
 * does not cancel it.
 */
export class LiveCall implements ElicitationTarget {
  /** Earlier requests of this call and their answers (also replayed ones), oldest first. */
  readonly answered: { digest: string; answer: McpElicitationAnswer }[] = [];
  /** The context of the run driving the call, for progress; none while paused. */
  ctx?: ToolContext;
  private readonly controller = new AbortController();
  private outcome?: CallStep;
  private asked?: { request: McpElicitationRequest; digest: string; resolve: (answer: McpElicitationAnswer) => void };
  private wake?: () => void;
  private unlinkSignal?: () => void;
  private onSettled?: () => void;

  constructor(private readonly digestOf: (request: McpElicitationRequest) => string) {}

  get waiting(): boolean {
    return this.asked !== undefined;
  }

  get settled(): boolean {
    return this.outcome !== undefined;
  }

  /** Starts the request with the call's own signal. */
  start(send: (signal: AbortSignal) => Promise<CallToolResult>): void {
    send(this.controller.signal).then(
      (result) => this.settle({ kind: 'done', result }),
      (error: unknown) => this.settle({ kind: 'failed', error }),
    );
  }

  /** The router hands the server's request here; resolves when the user (or the handler) answers. */
  elicit(request: McpElicitationRequest): Promise<McpElicitationAnswer> {
    if (this.outcome) return Promise.resolve({ action: 'cancel' });
    return new Promise((resolve) => {
      this.asked = { request, digest: this.digestOf(request), resolve };
      this.wake?.();
    });
  }

  warn(message: string): void {
    this.ctx?.logger.warn(`mcpToolset: ${message}`);
  }

  /** Whether the call is waiting for the answer to this request (by digest). */
  asking(digest: string): boolean {
    return this.asked?.digest === digest;
  }

  /** Gives the server the answer to the request it waits for. */
  answer(answer: McpElicitationAnswer): void {
    const asked = this.asked;
    if (!asked) return;
    this.asked = undefined;
    this.answered.push({ digest: asked.digest, answer });
    asked.resolve(answer);
  }

  /** The next step: the result, a failure, or a request waiting for its answer. */
  next(): Promise<CallStep> {
    const now = this.step();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      this.wake = () => {
        const step = this.step();
        if (!step) return;
        this.wake = undefined;
        resolve(step);
      };
    });
  }

  /** Follows `signal` (a run's): its abort cancels the call. Replaces the previous link. */
  link(signal: AbortSignal): void {
    this.unlink();
    if (signal.aborted) return void this.controller.abort(signal.reason);
    const onAbort = () => this.controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    this.unlinkSignal = () => signal.removeEventListener('abort', onAbort);
  }

  unlink(): void {
    this.unlinkSignal?.();
    this.unlinkSignal = undefined;
  }

  /** Cancels the call (the server gets `notifications/cancelled`). */
  cancel(reason: string): void {
    this.answer({ action: 'cancel' });
    this.controller.abort(new Error(reason));
  }

  /** Calls `listener` once the call has ended (a paused call whose request timed out, say). */
  whenSettled(listener: () => void): void {
    if (this.outcome) listener();
    else this.onSettled = listener;
  }

  private step(): CallStep | undefined {
    if (this.asked) return { kind: 'asked', request: this.asked.request, digest: this.asked.digest };
    return this.outcome;
  }

  private settle(outcome: CallStep): void {
    this.outcome = outcome;
    this.unlink();
    // The server stopped waiting (it ended the call, or the request timed out): nothing to answer.
    const asked = this.asked;
    this.asked = undefined;
    asked?.resolve({ action: 'cancel' });
    this.wake?.();
    this.onSettled?.();
  }
}
