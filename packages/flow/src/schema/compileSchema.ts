import type { Static, TSchema } from 'typebox';
import { copyJson } from './copyJson.js';
import { convertLossless } from './convertLossless.js';
import { formatSchemaErrors, MAX_SCHEMA_PROBLEMS, type SchemaError } from './schemaErrors.js';

/** How many raw errors TypeBox may collect for one message (its own default is 8). */
const ERROR_BUDGET = 64;

/** A compiled schema, for checks on hot paths. */
export interface CompiledSchema<T extends TSchema = TSchema> {
  readonly schema: T;
  /** The compiled check: fast, no allocation. */
  check(value: unknown): value is Static<T>;
  /** Why the value fails, as at most `max` (8) lines `path: message`; empty when it passes. */
  problems(value: unknown, max?: number): string[];
  /**
   * A copy with defaults filled in, keys the schema does not declare removed and, when that is
   * not enough, values converted where the conversion is lossless (`"42"` → 42, `"true"` → true,
   * 7 → `"7"`; never `"7.5"` → 7, `""` → 0 or `true` → 1: see `convertLossless`). The input is not
   * changed; the result is not checked.
   */
  coerce(value: unknown): unknown;
}

type Compiler = typeof import('typebox/compile');
type System = typeof import('typebox/system');
type Validator = ReturnType<Compiler['Compile']>;

/**
 * Compiles a TypeBox (or plain JSON) schema. TypeBox's compiler is loaded by the first call, not
 * when adkit is imported (it is most of a cold start). Compiling generates code, so do it once and
 * keep the result where it is used: `LazySchema` does that for a tool or an agent.
 */
export async function compileSchema<T extends TSchema>(schema: T): Promise<CompiledSchema<T>> {
  const [{ Compile }, { Settings }] = await Promise.all([import('typebox/compile'), import('typebox/system')]);
  const validator = Compile(schema);
  return {
    schema,
    check: (value): value is Static<T> => validator.Check(value),
    problems: (value, max = MAX_SCHEMA_PROBLEMS) =>
      validator.Check(value) ? [] : formatSchemaErrors(collectErrors(Settings, validator, value), max),
    coerce: (value) => {
      const copy = validator.Default(copyJson(value));
      return validator.Clean(validator.Check(copy) ? copy : convertLossless(schema, copy));
    },
  };
}

/**
 * TypeBox stops collecting at `maxErrors` (8), which can cut a union's error off from its branch
 * errors and count noise ("schema is false") against the limit. Raise the limit for this one
 * synchronous call, as TypeBox does itself for Parse, and restore it.
 */
function collectErrors(settings: System['Settings'], validator: Validator, value: unknown): SchemaError[] {
  const previous = settings.Get().maxErrors;
  if (previous >= ERROR_BUDGET) return validator.Errors(value);
  settings.Set({ maxErrors: ERROR_BUDGET });
  try {
    return validator.Errors(value);
  } finally {
    settings.Set({ maxErrors: previous });
  }
}
