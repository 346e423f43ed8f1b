import { markSelfPacking, packTool } from '@adkit/flow';
import type { FunctionDeclaration, LlmRequest, RequestContext, RequestProcessor, RunnableTool, ToolContext } from '@adkit/flow';
import { withLongRunningNote } from './longRunningNote.js';
import { assertToolOptions, type ToolOptions } from './toolOptions.js';

/**
 * A small base for tools written as classes: it checks the shared options at construction, and
 * registers the tool in each request (`processRequest` = `packTool`, PK-1). Subclasses provide
 * `declaration()` and `run()`; `declaredDescription()` adds the long-running note (FT-3).
 *
 * ```ts
 * class Clock extends BaseTool {
 *   constructor() { super({ name: 'now', description: 'The current time.' }); }
 *   declaration() { return { name: this.name, description: this.declaredDescription() }; }
 *   async run() { return { now: new Date().toISOString() }; }
 * }
 * ```
 */
export abstract class BaseTool implements RunnableTool, RequestProcessor {
  readonly name: string;
  readonly description: string;
  readonly isLongRunning: boolean;
  readonly timeoutMs?: number;
  /** Runs again after a crash instead of being reported interrupted (`ToolOptions.idempotent`). */
  readonly idempotent: boolean;

  constructor(options: ToolOptions) {
    assertToolOptions(new.target.name || 'BaseTool', options);
    this.name = options.name;
    this.description = options.description;
    this.isLongRunning = options.isLongRunning ?? false;
    if (options.timeoutMs !== undefined) this.timeoutMs = options.timeoutMs;
    this.idempotent = options.idempotent ?? false;
  }

  /** What the model is told about the tool; `undefined` makes it callable but not advertised. */
  abstract declaration(): FunctionDeclaration | undefined;

  /** Runs one call. Throw (ideally a `ToolError`) to answer the model with `{error}`. */
  abstract run(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown> | undefined>;

  /**
   * Registers the tool in the request and advertises its declaration (PK-1). Returns nothing when
   * that worked, so a step with many tools does not wait a microtask turn for each (#24); a refusal
   * (`DUPLICATE_TOOL`) is still a rejected promise. A subclass may return a promise.
   */
  processRequest(_ctx: RequestContext, request: LlmRequest): Promise<void> | void {
    try {
      packTool(request, this);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The description to declare: with the long-running note when the tool is long-running (FT-3). */
  protected declaredDescription(): string {
    return this.isLongRunning ? withLongRunningNote(this.description) : this.description;
  }
}

// The flow packs tools that keep this processRequest itself, many at once (#24); an override is
// a different function, which the flow calls.
markSelfPacking(BaseTool.prototype.processRequest);
