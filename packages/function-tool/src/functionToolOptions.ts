import { ConfigError, errorMessage, type FunctionDeclaration, type ToolContext } from '@adkit/flow';
import { assertToolOptions, isObjectSchema, withLongRunningNote, type ToolOptions } from '@adkit/tool';
import type { Static, TSchema } from 'typebox';
import { lazyArgumentParser, type ArgumentParser } from './argumentParser.js';

/**
 * Whether a call needs the user's approval first (HC-2): a flag, or a function of the call's
 * converted arguments, asked on each first call.
 */
export type RequireConfirmation<A> = boolean | ((args: A, ctx: ToolContext) => boolean | Promise<boolean>);

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
  requireConfirmation: RequireConfirmation<Static<P>>;
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
  const requireConfirmation = options.requireConfirmation ?? false;
  if (typeof requireConfirmation !== 'boolean' && typeof requireConfirmation !== 'function')
    throw new ConfigError(
      `${label}: requireConfirmation must be true, false or a function (args, ctx) => boolean | Promise<boolean>, got ${requireConfirmation === null ? 'null' : typeof requireConfirmation}.`,
    );
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
  return { parser, requireConfirmation, declaration };
}

/** The schema as plain JSON (what providers receive), detached from the caller's object. */
export function plainJson(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}
