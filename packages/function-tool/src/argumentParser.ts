import { compileSchema, invalidArgumentsError } from '@adkit/tool';
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { hasDefaults, strictSchema } from './strictSchema.js';

/** Turns the model's arguments into the handler's typed arguments, or throws a `ToolError`. */
export type ArgumentParser<P extends TSchema> = (args: unknown) => Static<P>;

/**
 * Compiles the argument schema once and returns the per-call parser (FT-4 step 3):
 * - fast path: `null`/`undefined` become `{}`, then one compiled check that also refuses keys the
 *   schema does not declare; a valid call pays for nothing else (defaults are filled in only when
 *   the schema has some);
 * - otherwise TypeBox's corrective pipeline on a copy (defaults, conversion such as `"42"` → 42 and
 *   `"true"` → true, unknown keys dropped), then the check again;
 * - still invalid: an `INVALID_ARGUMENTS` ToolError listing each problem as `path: message` (at
 *   most 8) and the expected fields.
 */
export function argumentParser<P extends TSchema>(toolName: string, parameters: P): ArgumentParser<P> {
  const compiled = compileSchema(parameters);
  const fastCheck = strictCheck(parameters) ?? compiled.check;
  const fillDefaults = hasDefaults(parameters);
  return (args) => {
    const value = args ?? {};
    if (fastCheck(value)) return (fillDefaults ? compiled.coerce(value) : value) as Static<P>;
    const coerced = compiled.coerce(value);
    if (compiled.check(coerced)) return coerced;
    throw invalidArgumentsError(toolName, compiled.problems(coerced), parameters);
  };
}

function strictCheck(parameters: TSchema): ((value: unknown) => boolean) | undefined {
  try {
    const validator = Compile(strictSchema(parameters));
    return (value) => validator.Check(value);
  } catch {
    return undefined;
  }
}
