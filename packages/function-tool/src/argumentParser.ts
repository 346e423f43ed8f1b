import { checkSchemaSyntax, compileSchema, invalidArgumentsError } from '@adkit/tool';
import type { Static, TSchema } from 'typebox';
import { hasDefaults, strictSchema } from './strictSchema.js';

/** Turns the model's arguments into the handler's typed arguments, or throws a `ToolError`. */
export type ArgumentParser<P extends TSchema> = (args: unknown) => Static<P>;

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
export function lazyArgumentParser<P extends TSchema>(toolName: string, parameters: P): () => Promise<ArgumentParser<P>> {
  checkSchemaSyntax(parameters);
  const strict = strictSchema(parameters);
  const fillDefaults = hasDefaults(parameters);
  let building: Promise<ArgumentParser<P>> | undefined;
  const build = async (): Promise<ArgumentParser<P>> => {
    const [compiled, fast] = await Promise.all([compileSchema(parameters), compileSchema(strict).catch(() => undefined)]);
    const fastCheck = fast?.check ?? compiled.check;
    return (args) => {
      const value = args ?? {};
      if (fastCheck(value)) return (fillDefaults ? compiled.coerce(value) : value) as Static<P>;
      const coerced = compiled.coerce(value);
      if (compiled.check(coerced)) return coerced;
      throw invalidArgumentsError(toolName, compiled.problems(coerced), parameters);
    };
  };
  return () => (building ??= build());
}
