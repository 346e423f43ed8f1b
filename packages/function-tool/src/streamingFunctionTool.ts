import type { AnySchema, FunctionDeclaration, RequestContext, RequestProcessor, SchemaOutput, StreamingTool, ToolContext } from '@adkit/flow';
import { markSelfPacking, packTool, type LlmRequest } from '@adkit/flow';
import { ToolError } from '@adkit/tool';
import type { ArgumentParser } from './argumentParser.js';
import { prepareFunctionTool, type FunctionToolBaseOptions } from './functionToolOptions.js';

/** Options of `streamingFunctionTool`. */
export interface StreamingFunctionToolOptions<P extends AnySchema> extends FunctionToolBaseOptions<P> {
  /**
   * The handler: typed arguments and the call's context; yields text chunks (an `async function*`).
   * The flow joins them into `{result}` and shows each as progress. Stop on `ctx.signal`; a
   * `finally` block runs when the call is cancelled or times out.
   */
  execute: (args: SchemaOutput<P>, ctx: ToolContext) => AsyncIterable<string>;
}

/** A tool made by `streamingFunctionTool`: streams text, registers itself, no `run` (FT-7). */
export interface StreamingFunctionTool<P extends AnySchema = AnySchema> extends StreamingTool, RequestProcessor {
  readonly isLongRunning: boolean;
  readonly idempotent: boolean;
  readonly parameters: P;
  declaration(): FunctionDeclaration;
}

const ABORTED = Symbol('aborted');

class StreamingFunctionToolImpl<P extends AnySchema> implements StreamingFunctionTool<P> {
  readonly name: string;
  readonly description: string;
  readonly isLongRunning: boolean;
  readonly timeoutMs?: number;
  readonly idempotent: boolean;
  readonly parameters: P;
  private readonly declared: FunctionDeclaration;
  private readonly parser: () => Promise<ArgumentParser<P>>;
  /** The compiled argument parser, once the first call has built it. */
  private parse?: ArgumentParser<P>;
  private readonly confirm: (ctx: ToolContext, args: SchemaOutput<P>) => Promise<void> | undefined;
  private readonly execute: (args: SchemaOutput<P>, ctx: ToolContext) => AsyncIterable<string>;

  constructor(options: StreamingFunctionToolOptions<P>) {
    const prepared = prepareFunctionTool('streamingFunctionTool', options);
    this.name = options.name;
    this.description = options.description;
    this.isLongRunning = options.isLongRunning ?? false;
    if (options.timeoutMs !== undefined) this.timeoutMs = options.timeoutMs;
    this.idempotent = options.idempotent ?? false;
    this.parameters = options.parameters;
    this.parser = prepared.parser;
    this.confirm = prepared.confirm;
    this.execute = options.execute;
    this.declared = Object.freeze(prepared.declaration);
  }

  declaration(): FunctionDeclaration {
    return this.declared;
  }

  /** Registers the tool and its declaration (PK-1); nothing to wait for unless refused (a rejected promise), see `BaseTool`. */
  processRequest(_ctx: RequestContext, request: LlmRequest): Promise<void> | void {
    try {
      packTool(request, this);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async *runStream(ctx: ToolContext, args: Record<string, unknown>): AsyncGenerator<string, void, undefined> {
    const parse = this.parse ?? (this.parse = await this.parser());
    const input = await parse(args, ctx);
    await this.confirm(ctx, input);
    if (ctx.signal.aborted) return;
    const stream = this.execute(input, ctx);
    if (typeof (stream as Partial<AsyncIterable<string>>)?.[Symbol.asyncIterator] !== 'function')
      throw new ToolError(
        `streamingFunctionTool "${this.name}": execute must return an async iterable of strings (write it as an async function*), got ${stream === null ? 'null' : typeof stream}.`,
        { toolName: this.name },
      );
    const iterator = stream[Symbol.asyncIterator]();
    let open = true;
    try {
      while (true) {
        const next = await nextUnlessAborted(iterator, ctx.signal);
        if (next === ABORTED) return;
        if (next.done) {
          open = false;
          return;
        }
        if (typeof next.value !== 'string')
          throw new ToolError(
            `streamingFunctionTool "${this.name}": execute yielded ${next.value === null ? 'null' : typeof next.value}; yield strings (e.g. JSON.stringify(value)).`,
            { toolName: this.name },
          );
        yield next.value;
      }
    } finally {
      // Cancelled, failed or left early: let the handler's `finally` run. Not awaited when the
      // signal aborted, so a handler that ignores its signal cannot hold the flow.
      if (open) {
        const closing = Promise.resolve(iterator.return?.()).catch(() => undefined);
        if (!ctx.signal.aborted) await closing;
      }
    }
  }
}

// Its processRequest only packs the tool: the flow packs it itself, with the others (#24).
markSelfPacking(StreamingFunctionToolImpl.prototype.processRequest);

/** The iterator's next item, or `ABORTED` as soon as the signal aborts (without waiting for it). */
function nextUnlessAborted<T>(iterator: AsyncIterator<T>, signal: AbortSignal): Promise<IteratorResult<T> | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    iterator.next().then(
      (result) => {
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * A tool whose handler streams text (FT-7, FL-12): arguments are checked and converted as for
 * `functionTool`, the confirmation gate runs first, then the chunks are forwarded until the
 * handler finishes or `ctx.signal` aborts (cancelled run, timeout). The flow joins the chunks into
 * `{result}` and emits each as a partial progress event. It has no `run`, so tool callbacks do not
 * apply to it.
 *
 * ```ts
 * const countdown = streamingFunctionTool({
 *   name: 'countdown',
 *   description: 'Counts down from n.',
 *   parameters: Type.Object({ n: Type.Integer({ minimum: 1, maximum: 10 }) }),
 *   async *execute({ n }) { for (let i = n; i > 0; i--) yield `${i} `; },
 * });
 * ```
 */
export function streamingFunctionTool<P extends AnySchema>(options: StreamingFunctionToolOptions<P>): StreamingFunctionTool<P> {
  return new StreamingFunctionToolImpl<P>(options);
}
