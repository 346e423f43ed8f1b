import { checkSchemaSyntax, compileSchema, ToolError, type CompiledSchema } from '@adkit/tool';
import type { TSchema } from 'typebox';

/** Turns a handler's return value into the tool's result (FT-5). */
export type ResultConverter = (value: unknown) => Record<string, unknown> | undefined;

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
    let value: unknown = raw;
    if (typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function')
      value = (value as { toJSON(): unknown }).toJSON();
    if (compiled && !compiled.check(value)) {
      const problems = compiled.problems(value);
      throw new ToolError(
        `Tool "${toolName}" returned a result that does not match its response schema: ${problems.join('; ')}.`,
        { code: 'INVALID_RESULT', toolName, problems },
      );
    }
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { result: value };
  };
}
