import type { JsonSchema } from '@adkit/flow';

const INTEGER_KEYWORDS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties']);
const DROPPED_KEYWORDS = new Set(['propertyOrdering', 'example']);

/**
 * Converts a genai (OpenAPI subset) schema, as used by `FunctionDeclaration.parameters`, to JSON
 * Schema: upper-case types (`'OBJECT'`) become lower-case, `nullable: true` adds `'null'` to the
 * type, int64 strings (`maxLength: '10'`) become numbers, `propertyOrdering` and `example` are
 * dropped. A schema that is already JSON Schema passes through unchanged in meaning.
 */
export function genaiSchemaToJsonSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  let nullable = false;
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED_KEYWORDS.has(key)) continue;
    if (key === 'nullable') nullable = value === true;
    else if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (key === 'type' && Array.isArray(value)) out.type = value.map((t) => (typeof t === 'string' ? t.toLowerCase() : t));
    else if (key === 'properties' && isObject(value))
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isObject(v) ? genaiSchemaToJsonSchema(v) : v]));
    else if ((key === 'items' || key === 'additionalProperties') && isObject(value)) out[key] = genaiSchemaToJsonSchema(value);
    else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value))
      out[key] = value.map((v: unknown) => (isObject(v) ? genaiSchemaToJsonSchema(v) : v));
    else if (INTEGER_KEYWORDS.has(key) && typeof value === 'string' && /^\d+$/.test(value)) out[key] = Number(value);
    else out[key] = value;
  }
  if (out.type === 'type_unspecified') delete out.type;
  if (nullable) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...(out.type as unknown[]), 'null'];
    else if (Array.isArray(out.anyOf)) out.anyOf = [...(out.anyOf as unknown[]), { type: 'null' }];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
  }
  return out;
}

/** Whether the value is a plain object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
