import { keepResponseParts } from './keepResponseParts.js';
import type { AnySchema, AuthConfig, FunctionDeclaration, RequestProcessor, RunnableTool, SchemaInput, SchemaOutput, ToolContext } from '@adkit/flow';
import { ConfigError } from '@adkit/flow';
import { BaseTool } from '@adkit/tool';
import type { ArgumentParser } from './argumentParser.js';
import { authStep, type AuthorizedOutcome } from './authStep.js';
import { prepareFunctionTool, prepareResponse, type FunctionToolBaseOptions } from './functionToolOptions.js';
import type { ResultConverter } from './resultConverter.js';

/** What `execute` may return: the response schema's (input) type when there is one. */
export type FunctionToolResult<R extends AnySchema | undefined> = R extends AnySchema ? SchemaInput<R> | undefined : unknown;

/** Options of `functionTool`. */
export interface FunctionToolOptions<P extends AnySchema, R extends AnySchema | undefined = undefined>
  extends FunctionToolBaseOptions<P> {
  /**
   * The result's schema (TypeBox or Standard JSON Schema): declared to the model and checked on
   * every result; with a Standard Schema the model gets its validated output.
   */
  response?: R;
  /**
   * The handler: typed arguments (already checked and converted) and the call's context. Return
   * an object, or any other value (wrapped as `{result}`), or nothing (no result; for a
   * long-running tool, "no response yet"). Throw to answer the model with `{error}`.
   */
  execute: (args: SchemaOutput<P>, ctx: ToolContext) => FunctionToolResult<R> | Promise<FunctionToolResult<R>>;
  /**
   * The credential the tool needs (AU-7): with none stored yet the call asks the user to consent
   * (an `adk_request_credential` pause) and answers `{status: "Pending User Authorization."}`;
   * once there is one, `execute` finds it at `ctx.credential`. Throw `CredentialRejectedError`
   * from `execute` on a 401: the credential is refreshed once and `execute` runs again.
   */
  auth?: AuthConfig;
  /**
   * What the model is sent instead of the result (#30; AI SDK's `toModelOutput`): a redacted
   * copy, a summary, or `withResponseParts(...)` to send an image. The function response event
   * keeps the result itself, which clients see and the session stores. A throw is the call's
   * error (the model never gets the unmapped result).
   */
  toModelOutput?: (result: Record<string, unknown>, ctx: ToolContext) => Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** A tool made by `functionTool`: runnable, registering itself, its schemas at hand. */
export interface FunctionTool<P extends AnySchema = AnySchema> extends RunnableTool, RequestProcessor {
  readonly isLongRunning: boolean;
  readonly idempotent: boolean;
  readonly parameters: P;
  readonly response?: AnySchema;
  declaration(): FunctionDeclaration;
}

/** A tool's compiled argument parser and result converter, and the FT-5 step calls share when they can. */
interface Compiled<P extends AnySchema> {
  parse: ArgumentParser<P>;
  convert: ResultConverter;
  /**
   * FT-5 for a handler's value (converted, its response parts kept), made once for every call when
   * the converter needs no signal (no response schema, or a TypeBox one); `undefined` for a
   * Standard Schema response, whose validator may need the call's signal.
   */
  finish: ((value: unknown) => Converted | Promise<Converted>) | undefined;
  /**
   * The common call with nothing between the model's arguments and the handler, when the tool has
   * such calls (#24): TypeBox parameters without defaults, no confirmation option, no auth, FT-5
   * without a signal. A call whose arguments pass `asIs` and that carries no confirmation runs the
   * handler on them, then `finish`: what the parser, the gate and the auth step would do, without
   * their frames.
   */
  direct: { asIs: (args: unknown) => boolean; finish: (value: unknown) => Converted | Promise<Converted> } | undefined;
}

type Converted = Record<string, unknown> | undefined;

class FunctionToolImpl<P extends AnySchema> extends BaseTool implements FunctionTool<P> {
  readonly parameters: P;
  readonly response?: AnySchema;
  private readonly declared: FunctionDeclaration;
  private readonly confirm: (ctx: ToolContext, args: SchemaOutput<P>) => Promise<void> | undefined;
  private readonly asksConfirmation: boolean;
  private readonly execute: (args: SchemaOutput<P>, ctx: ToolContext) => unknown;
  private readonly authorize?: (ctx: ToolContext, execute: () => unknown) => Promise<AuthorizedOutcome>;
  private readonly parser: () => Promise<ArgumentParser<P>>;
  private readonly converter: () => Promise<ResultConverter>;
  /** Whether the result converter may need the call's signal (a Standard Schema response). */
  private readonly resultNeedsSignal: boolean;
  /** The compiled argument parser and result converter, once the first call has built them. */
  private compiled?: Compiled<P>;

  constructor(options: FunctionToolOptions<P, AnySchema | undefined>) {
    const prepared = prepareFunctionTool('functionTool', options);
    super(options);
    this.parameters = options.parameters;
    this.parser = prepared.parser;
    this.confirm = prepared.confirm;
    this.asksConfirmation = prepared.asksConfirmation;
    this.execute = options.execute;
    this.authorize = authStep(`functionTool "${options.name}"`, options.auth);
    const declaration = prepared.declaration;
    const response = prepareResponse(`functionTool "${this.name}"`, this.name, options.response);
    this.converter = response.converter;
    this.resultNeedsSignal = response.needsSignal;
    if (options.response !== undefined) this.response = options.response;
    if (response.jsonSchema) declaration.responseJsonSchema = response.jsonSchema;
    this.declared = Object.freeze(declaration);
    if (options.toModelOutput !== undefined) {
      if (typeof options.toModelOutput !== 'function')
        throw new ConfigError(`functionTool "${options.name}": toModelOutput must be a function (result, ctx) => what the model is sent; leave it out to send the result.`);
      // An own property: only tools that map have the capability the flow checks for.
      Object.defineProperty(this, 'toModelOutput', { value: options.toModelOutput, enumerable: false });
    }
  }

  declaration(): FunctionDeclaration {
    return this.declared;
  }

  // Written with `then`, not `async`/`await`: on the common path (compiled schemas, TypeBox's
  // synchronous check, no confirmation, no auth) a call is the handler plus one promise reaction
  // for the FT-5 result rules (#24), and makes no closure. The steps that need one (first call,
  // async parse, a gate, auth, a Standard Schema response) are methods of their own: a closure in
  // these functions would have every call allocate a context for the variables it captures, taken
  // or not. Every failure, synchronous or not, is a rejected promise.
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    try {
      const compiled = this.compiled;
      if (compiled === undefined) return this.compileAndRun(ctx, args);
      const direct = compiled.direct;
      if (direct !== undefined && ctx.toolConfirmation === undefined && direct.asIs(args)) return settle(this.execute(args as SchemaOutput<P>, ctx), direct.finish);
      // A Standard Schema validator that answers later reads ctx.signal (which makes the call's controller) then.
      const parsed = compiled.parse(args, ctx);
      // The parsers answer later only with a native promise (a Standard Schema's async validator).
      if (parsed instanceof Promise) return this.afterAsyncParse(ctx, parsed, compiled);
      return this.afterParse(ctx, parsed, compiled);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private compileAndRun(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    return this.compile().then(() => this.run(ctx, args));
  }

  private afterAsyncParse(ctx: ToolContext, parsed: Promise<SchemaOutput<P>>, compiled: Compiled<P>): Promise<Record<string, unknown> | undefined> {
    return parsed.then((input) => this.afterParse(ctx, input, compiled));
  }

  /** The confirmation gate (HC-2), then the handler (behind the auth step when there is one), then FT-5. */
  private afterParse(ctx: ToolContext, input: SchemaOutput<P>, compiled: Compiled<P>): Promise<Record<string, unknown> | undefined> {
    const gate = this.confirm(ctx, input);
    if (gate !== undefined) return this.afterGate(gate, ctx, input, compiled);
    return this.callHandler(ctx, input, compiled);
  }

  private afterGate(gate: Promise<void>, ctx: ToolContext, input: SchemaOutput<P>, compiled: Compiled<P>): Promise<Record<string, unknown> | undefined> {
    return gate.then(() => this.callHandler(ctx, input, compiled));
  }

  private callHandler(ctx: ToolContext, input: SchemaOutput<P>, compiled: Compiled<P>): Promise<Record<string, unknown> | undefined> {
    if (this.authorize !== undefined) return this.callAuthorized(this.authorize, ctx, input, compiled);
    return settle(this.execute(input, ctx), compiled.finish ?? finishWithSignal(compiled.convert, ctx));
  }

  /** The handler behind the auth step (AU-7): pending until the user consents, then FT-5. */
  private callAuthorized(
    authorize: (ctx: ToolContext, execute: () => unknown) => Promise<AuthorizedOutcome>,
    ctx: ToolContext,
    input: SchemaOutput<P>,
    compiled: Compiled<P>,
  ): Promise<Record<string, unknown> | undefined> {
    const finish = compiled.finish ?? finishWithSignal(compiled.convert, ctx);
    return authorize(ctx, () => this.execute(input, ctx)).then((outcome) => ('pending' in outcome ? outcome.pending : finish(outcome.value)));
  }

  /** Compiles both schemas on the first call (TypeBox's compiler loads then) and keeps them here. */
  private async compile(): Promise<Compiled<P>> {
    const [parse, convert] = await Promise.all([this.parser(), this.converter()]);
    const finish = this.resultNeedsSignal ? undefined : (value: unknown) => keepResponseParts(value, convert(value));
    const direct =
      parse.asIs !== undefined && finish !== undefined && !this.asksConfirmation && this.authorize === undefined ? { asIs: parse.asIs, finish } : undefined;
    return (this.compiled = { parse, convert, finish, direct });
  }
}

/** The handler's value, then FT-5: one promise reaction for a native promise or a plain value. */
function settle(result: unknown, finish: (value: unknown) => Converted | Promise<Converted>): Promise<Converted> {
  // What `Promise.resolve` would return as it is (a native promise), without the call.
  if (result instanceof Promise && result.constructor === Promise) return result.then(finish);
  return isThenable(result) ? Promise.resolve(result).then(finish) : Promise.resolve(finish(result));
}

/** FT-5 for one call whose converter may need its signal (a Standard Schema response). */
function finishWithSignal(convert: ResultConverter, ctx: ToolContext): (value: unknown) => Converted | Promise<Converted> {
  return (value) => keepResponseParts(value, convert(value, ctx));
}

/** True for what `await` would wait for: a promise or any other object with a `then` method. */
function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as PromiseLike<T>).then === 'function';
}

/**
 * A tool from a typed function (FT-1 … FT-6). The options and schemas are checked and the
 * declaration built here; the schemas are compiled by the first call (so importing and
 * constructing stay cheap) and kept on the tool. Each call checks the arguments (converting them
 * only when the check fails, and only losslessly: `"42"` → 42, `"true"` → true; unknown keys
 * dropped), runs the confirmation gate (HC-2), the handler, and the result rules (FT-5). Bad arguments reach the model as an error listing each
 * problem and the expected fields.
 *
 * ```ts
 * const getWeather = functionTool({
 *   name: 'get_weather',
 *   description: 'The current weather in a city.',
 *   parameters: Type.Object({ city: Type.String() }),
 *   execute: async ({ city }) => ({ city, celsius: 21 }),
 * });
 * ```
 */
export function functionTool<P extends AnySchema, R extends AnySchema | undefined = undefined>(
  options: FunctionToolOptions<P, R>,
): FunctionTool<P> {
  return new FunctionToolImpl<P>(options as unknown as FunctionToolOptions<P, AnySchema | undefined>);
}
