import { ConfigError, errorMessage, type FunctionDeclaration, type ToolContext } from '@adkit/flow';
import {
  assertToolOptions,
  confirmationGate,
  isObjectSchema,
  LazySchema,
  withLongRunningNote,
  type ConfirmationGateOptions,
  type ToolOptions,
} from '@adkit/tool';
import type { Static, TSchema } from 'typebox';
import { lazyArgumentParser, type ArgumentParser } from './argumentParser.js';

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
   * The payload an approval must carry (a TypeBox schema). An approval whose payload does not
   * match is refused before the tool runs: the call's response is an `INVALID_CONFIRMATION_PAYLOAD`
   * error naming each problem, which the model and the client see. A rejection is not checked.
   */
  payloadSchema?: TSchema;
}

/**
 * Whether a call needs the user's approval first (HC-2): a flag, a function of the call's
 * converted arguments asked on each first call, or a `ConfirmationRequirement` (its own hint and
 * payload, and a payload schema).
 */
export type RequireConfirmation<A> = ConfirmationCondition<A> | ConfirmationRequirement<A>;

/** What plain and streaming function tools share. */
export interface FunctionToolBaseOptions<P extends TSchema> extends ToolOptions {
  /** The arguments: a TypeBox object schema, e.g. `Type.Object({ city: Type.String() })`. */
  parameters: P;
  /** Ask the user before running a call (HC-2); a function decides per call. */
  requireConfirmation?: RequireConfirmation<Static<P>>;
}

/** The construction-time work both kinds share: checks, the argument parser, the declaration. */
export interface PreparedFunctionTool<P extends TSchema> {
  /** The argument parser, compiled by the first call that asks (and kept). */
  parser: () => Promise<ArgumentParser<P>>;
  /** The HC-2 gate for one call with its converted arguments; resolves when the tool may run. */
  confirm: (ctx: ToolContext, args: Static<P>) => Promise<void>;
  declaration: FunctionDeclaration;
}

/**
 * Checks the options (FT-1) with messages naming the fix, and the argument schema for what would
 * not compile (compiling waits for the first call), and builds the declaration (FT-3), once.
 */
export function prepareFunctionTool<P extends TSchema>(
  owner: string,
  options: FunctionToolBaseOptions<P> & { execute: unknown; response?: unknown },
): PreparedFunctionTool<P> {
  assertToolOptions(owner, options);
  const label = `${owner} "${options.name}"`;
  if (!isObjectSchema(options.parameters))
    throw new ConfigError(
      `${label}: parameters must be a Type.Object schema; wrap the fields in Type.Object({...}) (Type.Object({}) for a tool without arguments).`,
    );
  if (options.response !== undefined && (typeof options.response !== 'object' || options.response === null))
    throw new ConfigError(`${label}: response must be a TypeBox schema such as Type.Object({...}), got ${options.response === null ? 'null' : typeof options.response}.`);
  if (typeof options.execute !== 'function')
    throw new ConfigError(`${label}: execute must be a function (args, ctx) => result, got ${typeof options.execute}.`);
  const confirm = confirmationStep(label, options.name, options.requireConfirmation === undefined ? false : options.requireConfirmation);
  let parser: () => Promise<ArgumentParser<P>>;
  try {
    parser = lazyArgumentParser(options.name, options.parameters);
  } catch (error) {
    throw new ConfigError(`${label}: the parameters schema does not compile: ${errorMessage(error)}`, { cause: error });
  }
  const declaration: FunctionDeclaration = {
    name: options.name,
    description: options.isLongRunning ? withLongRunningNote(options.description) : options.description,
    parametersJsonSchema: plainJson(options.parameters),
  };
  return { parser, confirm, declaration };
}

/** The gate a function tool runs before `execute`, from its `requireConfirmation` option. */
function confirmationStep<A>(
  label: string,
  toolName: string,
  option: RequireConfirmation<A>,
): (ctx: ToolContext, args: A) => Promise<void> {
  const expected = 'true, false, a function (args, ctx) => boolean | Promise<boolean>, or {when?, hint?, payload?, payloadSchema?}';
  const got = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);
  if (typeof option === 'boolean' || typeof option === 'function') {
    return async (ctx, args) => {
      if (option === false && ctx.toolConfirmation === undefined) return;
      await confirmationGate(ctx, toolName, typeof option === 'function' ? () => option(args, ctx) : option);
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
  if (payloadSchema !== undefined && (typeof payloadSchema !== 'object' || payloadSchema === null))
    throw new ConfigError(
      `${label}: requireConfirmation.payloadSchema must be a TypeBox schema such as Type.Object({...}), got ${got(payloadSchema)}.`,
    );
  let schema: LazySchema | undefined;
  try {
    schema = payloadSchema === undefined ? undefined : new LazySchema(payloadSchema);
  } catch (error) {
    throw new ConfigError(`${label}: requireConfirmation.payloadSchema does not compile: ${errorMessage(error)}`, { cause: error });
  }
  const checkPayload = schema && (async (value: unknown) => (schema.compiled ?? (await schema.compile())).problems(value));
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
