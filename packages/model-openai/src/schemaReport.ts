import type { JsonSchema } from '@adkit/flow';
import { compileStrictSchema } from './strictSchema.js';
import { isObject } from './toJsonSchema.js';

/** What a provider does with one part of a schema. */
export interface SchemaFinding {
  /** JSON pointer of the subschema (`''` is the root). */
  path: string;
  keyword: string;
  /**
   * `rejected`: the provider refuses the schema (for `openai-strict`: the adapter then sends the
   * tool non-strict); `ignored`: accepted but not enforced or not seen; `changed`: rewritten by the
   * adapter (its schema pass `openaiSchema`, or the strict form).
   */
  effect: 'rejected' | 'ignored' | 'changed';
  message: string;
}

/** Per provider, what it would reject or lose of a tool's parameter schema. */
export interface SchemaReport {
  openai: SchemaFinding[];
  'openai-strict': SchemaFinding[];
  gemini: SchemaFinding[];
}

const VALIDATION_KEYWORDS = new Set([
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'contains',
  'not',
  'if',
]);

/** The JSON Schema subset Gemini reads from `parametersJsonSchema` / `responseJsonSchema`. */
const GEMINI_KEYWORDS = new Set([
  '$id',
  '$defs',
  '$ref',
  '$anchor',
  '$schema',
  'type',
  'format',
  'title',
  'description',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
  'oneOf',
  'properties',
  'additionalProperties',
  'required',
  'propertyOrdering',
]);

const SUBSCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas'];
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SUBSCHEMA_SINGLE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems'];

/** Visits every subschema with its JSON pointer. */
function walk(schema: unknown, path: string, visit: (node: JsonSchema, path: string) => void): void {
  if (!isObject(schema)) return;
  visit(schema, path);
  for (const key of SUBSCHEMA_MAPS) {
    const map = schema[key];
    if (isObject(map)) for (const [name, child] of Object.entries(map)) walk(child, `${path}/${key}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, visit);
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((child, i) => walk(child, `${path}/${key}/${i}`, visit));
  }
  for (const key of SUBSCHEMA_SINGLE) {
    const child = schema[key];
    if (Array.isArray(child)) child.forEach((c, i) => walk(c, `${path}/${key}/${i}`, visit));
    else walk(child, `${path}/${key}`, visit);
  }
}

function isArraySchema(node: JsonSchema): boolean {
  return node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'));
}

function openaiFindings(schema: JsonSchema): SchemaFinding[] {
  const findings: SchemaFinding[] = [];
  if (schema.type !== 'object') {
    findings.push({ path: '', keyword: 'type', effect: 'rejected', message: 'function parameters must be a JSON Schema of type "object"' });
  }
  walk(schema, '', (node, path) => {
    // OpenAI refuses these; the adapter's pass (openaiSchema) rewrites them.
    if (isArraySchema(node) && node.items === undefined) {
      findings.push({ path, keyword: 'items', effect: 'changed', message: 'an array schema without "items" is rejected by OpenAI; the adapter sends "items": {}' });
    }
    if (Array.isArray(node.items)) {
      findings.push({ path, keyword: 'items', effect: 'changed', message: 'tuple "items" (an array of schemas) is rejected by OpenAI; the adapter sends "prefixItems"' });
    }
    for (const key of Object.keys(node)) {
      if (VALIDATION_KEYWORDS.has(key)) {
        findings.push({ path, keyword: key, effect: 'ignored', message: `"${key}" is not enforced outside strict mode; the model reads it as a hint` });
      }
    }
  });
  return findings;
}

function strictFindings(schema: JsonSchema): SchemaFinding[] {
  const compiled = compileStrictSchema(schema);
  if (!compiled.ok) return compiled.problems.map((p) => ({ ...p, effect: 'rejected' as const }));
  return compiled.changes.map((c) => ({
    ...c,
    effect: c.message.endsWith('moved into the description') ? ('ignored' as const) : ('changed' as const),
  }));
}

function geminiFindings(schema: JsonSchema): SchemaFinding[] {
  const findings: SchemaFinding[] = [];
  walk(schema, '', (node, path) => {
    if (Array.isArray(node.items)) {
      findings.push({ path, keyword: 'items', effect: 'rejected', message: 'tuple "items" (an array of schemas) is rejected; use "prefixItems"' });
    }
    if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) {
      findings.push({ path, keyword: '$ref', effect: 'rejected', message: `remote reference ${JSON.stringify(node.$ref)} cannot be resolved` });
    }
    for (const key of Object.keys(node)) {
      if (!GEMINI_KEYWORDS.has(key)) {
        findings.push({ path, keyword: key, effect: 'ignored', message: `"${key}" is outside Gemini's JSON Schema subset and is ignored` });
      }
    }
  });
  return findings;
}

/**
 * Lists, per provider, what each would reject or lose of a tool's parameter schema:
 * `openai` (function calling, not strict), `openai-strict` (what `strict: true` rewrites, moves into
 * the description, or cannot express) and `gemini` (`parametersJsonSchema`). A guide for authors;
 * the rules follow the providers' documentation as of 2025.
 *
 * @example
 * schemaReport(Type.Object({ tags: Type.Record(Type.String(), Type.String()) }))['openai-strict']
 * // [{ path: '/properties/tags', keyword: 'patternProperties', effect: 'rejected', … }]
 */
export function schemaReport(schema: JsonSchema): SchemaReport {
  return { openai: openaiFindings(schema), 'openai-strict': strictFindings(schema), gemini: geminiFindings(schema) };
}
