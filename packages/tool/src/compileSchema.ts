import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Settings } from 'typebox/system';
import Value from 'typebox/value';
import { formatSchemaErrors, MAX_SCHEMA_PROBLEMS } from './schemaErrors.js';

/** How many raw errors TypeBox may collect for one message (its own default is 8). */
const ERROR_BUDGET = 64;

/** A schema compiled once, for checks on hot paths. */
export interface CompiledSchema<T extends TSchema = TSchema> {
  readonly schema: T;
  /** The compiled check: fast, no allocation. */
  check(value: unknown): value is Static<T>;
  /** Why the value fails, as at most `max` (8) lines `path: message`; empty when it passes. */
  problems(value: unknown, max?: number): string[];
  /**
   * TypeBox's corrective pipeline on a copy: defaults filled in, values converted where that is
   * lossless enough (`"42"` → 42, `"true"` → true), keys the schema does not declare removed. The
   * input is not changed; the result is not checked.
   */
  coerce(value: unknown): unknown;
}

/**
 * Compiles a TypeBox (or plain JSON) schema once. Call it at construction, never per call:
 * compiling generates code, checking with the result takes nanoseconds.
 */
export function compileSchema<T extends TSchema>(schema: T): CompiledSchema<T> {
  const validator = Compile(schema);
  return {
    schema,
    check: (value): value is Static<T> => validator.Check(value),
    problems: (value, max = MAX_SCHEMA_PROBLEMS) =>
      validator.Check(value) ? [] : formatSchemaErrors(collectErrors(validator, value), max),
    coerce: (value) => validator.Clean(validator.Convert(validator.Default(Value.Clone(value)))),
  };
}

/**
 * TypeBox stops collecting at `maxErrors` (8), which can cut a union's error off from its branch
 * errors and count noise ("schema is false") against the limit. Raise the limit for this one
 * synchronous call, as TypeBox does itself for Parse, and restore it.
 */
function collectErrors(validator: ReturnType<typeof Compile>, value: unknown) {
  const previous = Settings.Get().maxErrors;
  if (previous >= ERROR_BUDGET) return validator.Errors(value);
  Settings.Set({ maxErrors: ERROR_BUDGET });
  try {
    return validator.Errors(value);
  } finally {
    Settings.Set({ maxErrors: previous });
  }
}
