import {
  ConfigError,
  errorMessage,
  isStandardSchema,
  SchemaCheck,
  type AnySchema,
  type FunctionDeclaration,
  type JsonSchema,
  type SchemaOutput,
  type ToolContext,
} from '@adkit/flow';
import { deepFreeze } from '@adkit/flow/store';
import {
  assertToolOptions,
  confirmationGate,
  isObjectSchema,
  withLongRunningNote,
  type ConfirmationGateOptions,
  type ToolOptions,
} from '@adkit/tool';
import type { TSchema } from 'typebox';
import { lazyArgumentParser, standardArgumentParser, type ArgumentParser } from './argumentParser.js';
import { lazyResultConverter, standardResultConverter, type ResultConverter } from './resultConverter.js';

/** Whether a call needs approval: a flag, or a function of the call's converted arguments. */
export type ConfirmationCondition<A> = boolean | ((args: A, ctx: ToolContext) => boolean | Promise<boolean>);

/**
 * Approval with more than the HC-2 defaults: the tool's own hint and payload, and a schema the
 * approver's payload must match before the tool runs.
 *
 * ```ts
 * requireConfirmation: {
 *   hint: ({ days }) => `Approve ${days} vacation days?`,
 *   payload: ({ days }) => ({ days_approved: days }),
 *   payloadSchema: Type.Object({ days_approved: Type.Integer({ minimum: 0 }) }),
 * }
 * ```
 */
export interface ConfirmationRequirement<A> {
  /** When to ask; default `true` (every call). */
  when?: ConfirmationCondition<A>;
  /** The hint shown to the approver; default `Approve "<tool>" with <args>?`. */
  hint?: (args: A) => string;
  /** What the request carries for the approver to see or fill in (a draft answer). */
  payload?: (args: A) => unknown;
  /**
   * The payload an approval must carry: a TypeBox schema or a Standard JSON Schema (zod 4,
   * valibot, arktype; validated through `~standard.validate`). An approval whose payload does not
   * match is refused before the tool runs: the call's response is an `INVALID_CONFIRMATION_PAYLOAD`
   * error naming each problem, which the model and the client see. A rejection is not checked.
   */
  payloadSchema?: AnySchema;
}

/**
 * Whether a call needs the user's approval first (HC-2): a flag, a function of the call's
 * converted arguments asked on each first call, or a `ConfirmationRequirement` (its own hint and
 * payload, and a payload schema).
 */
export type RequireConfirmation<A> = ConfirmationCondition<A> | ConfirmationRequirement<A>;

/** What plain and streaming function tools share. */
export interface FunctionToolBaseOptions<P extends AnySchema> extends ToolOptions {
  /**
   * The arguments: a TypeBox object schema (`Type.Object({ city: Type.String() })`, the compiled
   * fast path) or a Standard JSON Schema of an object (`z.object({ city: z.string() })` in zod 4,
   * valibot through `toStandardJsonSchema`, arktype). `execute` gets the schema's output.
   */
  parameters: P;
  /** Ask the user before running a call (HC-2); a function decides per call. */
  requireConfirmation?: RequireConfirmation<SchemaOutput<P>>;
}

/** The construction-time work both kinds share: checks, the argument parser, the declaration. */
export interface PreparedFunctionTool<P extends AnySchema> {
  /** The argument parser, compiled by the first call that asks (and kept). */
  parser: () => Promise<ArgumentParser<P>>;
  /**
   * The HC-2 gate for one call with its converted arguments; resolves when the tool may run.
   * `undefined` when there is nothing to ask or answer (no confirmation configured and none given),
   * so a plain call does not wait for a promise.
   */
  confirm: (ctx: ToolContext, args: SchemaOutput<P>) => Promise<void> | undefined;
  /**
   * Whether `requireConfirmation` asks for anything (it is set, and not `false`). When not,
   * `confirm` has work only for a call that carries a confirmation (HC-2 refuses one sent to a
   * tool that asks for none).
   */
  asksConfirmation: boolean;
  declaration: FunctionDeclaration;
}

/**
 * Checks the options (FT-1) with messages naming the fix, and the argument schema for what would
 * not compile (compiling waits for the first call), and builds the declaration (FT-3), once.
 */
export function prepareFunctionTool<P extends AnySchema>(
  owner: string,
  options: FunctionToolBaseOptions<P> & { execute: unknown; response?: unknown },
): PreparedFunctionTool<P> {
  assertToolOptions(owner, options);
  const label = `${owner} "${options.name}"`;
  if (isStandardSchema(options.parameters)) return prepareStandard(label, options);
  if (!isObjectSchema(options.parameters))
    throw new ConfigError(
      `${label}: parameters must be a Type.Object schema; wrap the fields in Type.Object({...}) (Type.Object({}) for a tool without arguments).`,
    );
  assertRest(label, options);
  const confirm = confirmationStep(label, options.name, options.requireConfirmation === undefined ? false : options.requireConfirmation);
  let parser: () => Promise<ArgumentParser<P>>;
  try {
    parser = lazyArgumentParser(options.name, options.parameters as TSchema) as () => Promise<ArgumentParser<P>>;
  } catch (error) {
    throw new ConfigError(`${label}: the parameters schema does not compile: ${errorMessage(error)}`, { cause: error });
  }
  return { parser, confirm, asksConfirmation: asksConfirmation(options), declaration: declare(options, plainJson(options.parameters as TSchema)) };
}

/**
 * A Standard JSON Schema's parameters (#26): declared from `~standard.jsonSchema.input` (through
 * flow's `SchemaCheck`, which throws the `ConfigError` for a library without JSON Schema output),
 * which must describe an object; parsed by `standardArgumentParser`.
 */
function prepareStandard<P extends AnySchema>(
  label: string,
  options: FunctionToolBaseOptions<P> & { execute: unknown; response?: unknown },
): PreparedFunctionTool<P> {
  const check = new SchemaCheck(options.parameters, { label: `${label}: the parameters schema` });
  const declared: JsonSchema = check.jsonSchema;
  if (!isObjectSchema(declared))
    throw new ConfigError(
      `${label}: parameters must describe an object (z.object({...}), v.object({...}) or type({...}); an empty one for a tool without arguments), but its JSON Schema has type ${JSON.stringify((declared as JsonSchema).type) ?? 'none'}.`,
    );
  assertRest(label, options);
  const confirm = confirmationStep(label, options.name, options.requireConfirmation === undefined ? false : options.requireConfirmation);
  const parser = Promise.resolve(standardArgumentParser<P>(options.name, check));
  return { parser: () => parser, confirm, asksConfirmation: asksConfirmation(options), declaration: declare(options, check.jsonSchema) };
}

function asksConfirmation(options: { requireConfirmation?: unknown }): boolean {
  return options.requireConfirmation !== undefined && options.requireConfirmation !== false;
}

function assertRest(label: string, options: { execute: unknown; response?: unknown }): void {
  const response = options.response;
  if (response !== undefined && !isStandardSchema(response) && (typeof response !== 'object' || response === null))
    throw new ConfigError(
      `${label}: response must be a TypeBox schema such as Type.Object({...}) or a Standard JSON Schema such as z.object({...}), got ${response === null ? 'null' : typeof response}.`,
    );
  if (typeof options.execute !== 'function')
    throw new ConfigError(`${label}: execute must be a function (args, ctx) => result, got ${typeof options.execute}.`);
}

/**
 * The declaration, sent unchanged by every step of every run: its schema is the tool's own copy,
 * frozen through, so a callback or adapter that changes what one step sends gets a `TypeError`
 * instead of changing what later steps send (#24). The tool freezes the object itself once built.
 */
function declare(options: { name: string; description: string; isLongRunning?: boolean }, parameters: JsonSchema): FunctionDeclaration {
  return {
    name: options.name,
    description: options.isLongRunning ? withLongRunningNote(options.description) : options.description,
    parametersJsonSchema: deepFreeze(parameters),
  };
}

/** A function tool's response: its converter (FT-5) and what is declared (`responseJsonSchema`). */
export interface PreparedResponse {
  converter: () => Promise<ResultConverter>;
  /** Whether the converter may need the call's signal (a Standard Schema's validator may answer later). */
  needsSignal: boolean;
  /** Absent without a response schema. */
  jsonSchema?: JsonSchema;
}

/**
 * The response side of a function tool: a TypeBox schema is checked now and compiled by the first
 * call; a Standard JSON Schema is declared from `~standard.jsonSchema.output` (what the model
 * receives is the validated output) and validated through `~standard.validate`.
 */
export function prepareResponse(label: string, toolName: string, response: AnySchema | undefined): PreparedResponse {
  if (response === undefined) return { converter: lazyResultConverter(toolName, undefined), needsSignal: false };
  if (isStandardSchema(response)) {
    const check = new SchemaCheck(response, { label: `${label}: the response schema`, declare: 'output' });
    const converter = Promise.resolve(standardResultConverter(toolName, check));
    return { converter: () => converter, needsSignal: true, jsonSchema: deepFreeze(check.jsonSchema) };
  }
  try {
    return { converter: lazyResultConverter(toolName, response as TSchema), needsSignal: false, jsonSchema: deepFreeze(plainJson(response as TSchema)) };
  } catch (error) {
    throw new ConfigError(`${label}: the response schema does not compile: ${errorMessage(error)}`, { cause: error });
  }
}

/** The gate a function tool runs before `execute`, from its `requireConfirmation` option. */
function confirmationStep<A>(
  label: string,
  toolName: string,
  option: RequireConfirmation<A>,
): (ctx: ToolContext, args: A) => Promise<void> | undefined {
  const expected = 'true, false, a function (args, ctx) => boolean | Promise<boolean>, or {when?, hint?, payload?, payloadSchema?}';
  const got = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);
  if (typeof option === 'boolean' || typeof option === 'function') {
    return (ctx, args) => {
      if (option === false && ctx.toolConfirmation === undefined) return undefined;
      return confirmationGate(ctx, toolName, typeof option === 'function' ? () => option(args, ctx) : option);
    };
  }
  if (typeof option !== 'object' || option === null || Array.isArray(option))
    throw new ConfigError(`${label}: requireConfirmation must be ${expected}, got ${got(option)}.`);
  const { when = true, hint, payload, payloadSchema } = option;
  if (typeof when !== 'boolean' && typeof when !== 'function')
    throw new ConfigError(`${label}: requireConfirmation.when must be true, false or a function (args, ctx) => boolean, got ${got(when)}.`);
  for (const [key, value] of [['hint', hint], ['payload', payload]] as const)
    if (value !== undefined && typeof value !== 'function')
      throw new ConfigError(`${label}: requireConfirmation.${key} must be a function of the call's arguments, got ${got(value)}.`);
  if (payloadSchema !== undefined && !isStandardSchema(payloadSchema) && (typeof payloadSchema !== 'object' || payloadSchema === null))
    throw new ConfigError(
      `${label}: requireConfirmation.payloadSchema must be a TypeBox schema such as Type.Object({...}) or a Standard JSON Schema such as z.object({...}), got ${got(payloadSchema)}.`,
    );
  // SchemaCheck throws the ConfigError (`… does not compile: …`, or a library without JSON Schema output).
  const schema = payloadSchema === undefined ? undefined : new SchemaCheck(payloadSchema, { label: `${label}: requireConfirmation.payloadSchema` });
  const checkPayload =
    schema &&
    (async (value: unknown) => {
      const result = await schema.validate(value);
      return result.ok ? [] : result.problems;
    });
  return async (ctx, args) => {
    if (when === false && ctx.toolConfirmation === undefined) return;
    const gate: ConfirmationGateOptions = { checkPayload };
    if (ctx.toolConfirmation === undefined) {
      if (hint) gate.hint = hint(args);
      if (payload) gate.payload = payload(args);
    }
    await confirmationGate(ctx, toolName, typeof when === 'function' ? () => when(args, ctx) : when, gate);
  };
}

/** The schema as plain JSON (what providers receive), detached from the caller's object. */
export function plainJson(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}
