import type { SchemaCheck, SchemaResult, ToolContext } from '@adkit/flow';
import { checkSchemaSyntax, compileSchema, ToolError, type CompiledSchema } from '@adkit/tool';
import type { TSchema } from 'typebox';

/**
 * Turns a handler's return value into the tool's result (FT-5); a promise for an async Standard
 * Schema validator, which then gets the call's signal (`ctx.signal`, read only then).
 */
export type ResultConverter = (value: unknown, ctx?: Pick<ToolContext, 'signal'>) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>;

/**
 * The FT-5 rules for one tool. A response schema is checked now (construction) and compiled when
 * the first call asks for the converter; the tool keeps the result.
 * - `undefined` / `null` → no result (a long-running tool's "no response yet", FL-15);
 * - a value with `toJSON()` (a Date) is converted first, as JSON would;
 * - checked against `response` when given; a mismatch is an `INVALID_RESULT` ToolError naming the
 *   fields;
 * - an object passes as it is; anything else (string, number, boolean, array) becomes `{result}`.
 */
export function lazyResultConverter(toolName: string, response: TSchema | undefined): () => Promise<ResultConverter> {
  if (response === undefined) {
    const converter = Promise.resolve(resultConverter(toolName, undefined));
    return () => converter;
  }
  checkSchemaSyntax(response);
  let building: Promise<ResultConverter> | undefined;
  return () => (building ??= compileSchema(response).then((compiled) => resultConverter(toolName, compiled)));
}

function resultConverter(toolName: string, compiled: CompiledSchema | undefined): ResultConverter {
  return (raw) => {
    if (raw === undefined || raw === null) return undefined;
    const value = jsonValue(raw);
    if (compiled && !compiled.check(value)) throw invalidResult(toolName, compiled.problems(value));
    return wrapResult(value);
  };
}

/**
 * The FT-5 rules with a Standard JSON Schema response (zod, valibot, arktype): the result is
 * validated by the library (strictly, no conversion) and its output value, transforms applied,
 * is what the model gets.
 */
export function standardResultConverter(toolName: string, check: SchemaCheck): ResultConverter {
  const finish = (result: SchemaResult): Record<string, unknown> => {
    if (!result.ok) throw invalidResult(toolName, result.problems);
    return wrapResult(result.value);
  };
  return (raw, ctx) => {
    if (raw === undefined || raw === null) return undefined;
    const result = check.validate(jsonValue(raw), ctx && (() => ctx.signal));
    return result instanceof Promise ? result.then(finish) : finish(result);
  };
}

/** A value with `toJSON()` (a Date) converted first, as JSON would. */
function jsonValue(raw: unknown): unknown {
  if (typeof raw === 'object' && raw !== null && typeof (raw as { toJSON?: unknown }).toJSON === 'function')
    return (raw as { toJSON(): unknown }).toJSON();
  return raw;
}

function invalidResult(toolName: string, problems: string[]): ToolError {
  return new ToolError(`Tool "${toolName}" returned a result that does not match its response schema: ${problems.join('; ')}.`, {
    code: 'INVALID_RESULT',
    toolName,
    problems,
  });
}

function wrapResult(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value };
}
