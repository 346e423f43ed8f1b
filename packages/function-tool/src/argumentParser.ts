import type { AnySchema, SchemaCheck, SchemaOutput, SchemaResult, ToolContext } from '@adkit/flow';
import { checkSchemaSyntax, compileSchema, invalidArgumentsError } from '@adkit/tool';
import type { Static, TSchema } from 'typebox';
import { hasDefaults, strictSchema } from './strictSchema.js';

/**
 * Turns the model's arguments into the handler's typed arguments, or throws a `ToolError`.
 * Synchronous for TypeBox; a native promise when a Standard Schema's validator is async, which
 * then gets the call's signal (`ctx.signal`, read only then: reading it makes the call's controller).
 */
export interface ArgumentParser<P extends AnySchema> {
  (args: unknown, ctx?: Pick<ToolContext, 'signal'>): SchemaOutput<P> | Promise<SchemaOutput<P>>;
  /**
   * True for arguments the parser would return as they are (they pass the strict check and the
   * schema has no defaults to fill in): a caller may then skip the parser (#24). Absent when the
   * parser always builds its value (a Standard Schema's output).
   */
  readonly asIs?: (args: unknown) => boolean;
}

/** A TypeBox schema's parser: synchronous, and `asIs` when the schema has no defaults. */
type TypeBoxParser<P extends TSchema> = ((args: unknown) => Static<P>) & { readonly asIs?: (args: unknown) => boolean };

/**
 * The argument parser of one tool (FT-4 step 3). The schema is checked now, at construction
 * (`checkSchemaSyntax` throws what compiling would); it is compiled when the first call asks for
 * the parser (loading TypeBox's compiler then, not at import), and the tool keeps the result.
 * The parser:
 * - fast path: `null`/`undefined` become `{}`, then one compiled check that also refuses keys the
 *   schema does not declare; a valid call pays for nothing else (defaults are filled in only when
 *   the schema has some);
 * - otherwise, on a copy: defaults, unknown keys dropped and, if still needed, lossless conversion
 *   only (`"42"` → 42, `"true"` → true; never `"7.5"` → 7, `""` → 0 or `true` → 1), then the check
 *   again;
 * - still invalid: an `INVALID_ARGUMENTS` ToolError listing each problem as `path: message` (at
 *   most 8, naming the field) and the expected fields.
 */
export function lazyArgumentParser<P extends TSchema>(toolName: string, parameters: P): () => Promise<TypeBoxParser<P>> {
  checkSchemaSyntax(parameters);
  const strict = strictSchema(parameters);
  const fillDefaults = hasDefaults(parameters);
  let building: Promise<TypeBoxParser<P>> | undefined;
  const build = async (): Promise<TypeBoxParser<P>> => {
    const [compiled, fast] = await Promise.all([compileSchema(parameters), compileSchema(strict).catch(() => undefined)]);
    const fastCheck = fast?.check ?? compiled.check;
    const parse = (args: unknown): Static<P> => {
      const value = args ?? {};
      if (fastCheck(value)) return (fillDefaults ? compiled.coerce(value) : value) as Static<P>;
      const coerced = compiled.coerce(value);
      if (compiled.check(coerced)) return coerced;
      throw invalidArgumentsError(toolName, compiled.problems(coerced), parameters);
    };
    return fillDefaults ? parse : Object.assign(parse, { asIs: fastCheck });
  };
  return () => (building ??= build());
}

/**
 * The argument parser of a tool whose parameters are a Standard JSON Schema (zod, valibot,
 * arktype), through flow's `SchemaCheck.validateLenient`: `null`/`undefined` become `{}`, the
 * library validates a copy (its transforms, defaults and refinements apply, and the handler gets
 * its output); when that fails, the arguments are converted losslessly as the declared JSON Schema
 * says (`"42"` → 42, `"true"` → true; never `"7.5"` → 7) and validated once more. Unknown keys are
 * the library's business (zod's `z.object` strips them, `z.strictObject` refuses them). Still
 * invalid: the same `INVALID_ARGUMENTS` ToolError as for TypeBox (`path: message`, at most 8, and
 * the expected fields from the JSON Schema).
 */
export function standardArgumentParser<P extends AnySchema>(toolName: string, check: SchemaCheck): ArgumentParser<P> {
  const finish = (result: SchemaResult): SchemaOutput<P> => {
    if (result.ok) return result.value as SchemaOutput<P>;
    throw invalidArgumentsError(toolName, result.problems, check.jsonSchema);
  };
  return (args, ctx) => {
    const result = check.validateLenient(args ?? {}, ctx && (() => ctx.signal));
    return result instanceof Promise ? result.then(finish) : finish(result);
  };
}
