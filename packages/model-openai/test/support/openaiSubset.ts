// Checkers of what OpenAI documents for function-tool parameters (platform.openai.com, "Function
// calling" and "Structured Outputs: supported schemas"): outside strict mode an object root and
// arrays with one `items` schema; in strict mode only the supported keywords, every object closed
// (`additionalProperties: false`) with every property required, local references only, the listed
// string formats, at most 10 levels of nesting, 5000 properties and 1000 enum values.
import type { JsonSchema } from '@adkit/flow';

const STRICT_KEYWORDS = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', '$ref', '$defs', 'definitions',
  'description', 'title', 'pattern', 'format', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'minItems', 'maxItems',
]);
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
const MAPS = ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas'];
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SINGLE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems'];

function walk(schema: unknown, visit: (node: JsonSchema, path: string, depth: number) => void, path = '', depth = 0): void {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
  const node = schema as JsonSchema;
  visit(node, path, depth);
  for (const key of MAPS)
    if (typeof node[key] === 'object' && node[key] !== null)
      for (const [name, child] of Object.entries(node[key] as JsonSchema)) walk(child, visit, `${path}/${key}/${name}`, key === 'properties' ? depth + 1 : 0);
  for (const key of LISTS) if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((child, i) => walk(child, visit, `${path}/${key}/${i}`, depth));
  for (const key of SINGLE) if (node[key] !== undefined) walk(node[key], visit, `${path}/${key}`, depth);
}

/** What OpenAI refuses in a non-strict function's parameters. */
export function openaiProblems(schema: JsonSchema): string[] {
  const problems: string[] = [];
  if (schema.type !== 'object') problems.push('(root): parameters must be of type "object"');
  walk(schema, (node, path) => {
    const isArray = node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'));
    if (isArray && (typeof node.items !== 'object' || node.items === null || Array.isArray(node.items))) problems.push(`${path}: array schema missing items`);
    if (Array.isArray(node.items)) problems.push(`${path}: items must be a schema`);
  });
  return problems;
}

/** What OpenAI refuses in a strict function's parameters. */
export function openaiStrictProblems(schema: JsonSchema): string[] {
  const problems: string[] = [];
  let properties = 0;
  let enums = 0;
  if (schema.type !== 'object') problems.push('(root): must be an object');
  walk(schema, (node, path, depth) => {
    for (const key of Object.keys(node)) if (!STRICT_KEYWORDS.has(key)) problems.push(`${path}: "${key}" is not supported`);
    const isObject = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));
    if (isObject || node.properties !== undefined) {
      if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
      const keys = Object.keys((node.properties as object | undefined) ?? {});
      const required = Array.isArray(node.required) ? node.required : [];
      if (keys.some((key) => !required.includes(key))) problems.push(`${path}: every property must be required`);
      properties += keys.length;
    }
    if (typeof node.$ref === 'string' && !/^#(\/(\$defs|definitions)\/[^/]+)?$/.test(node.$ref)) problems.push(`${path}: $ref ${node.$ref}`);
    if (typeof node.format === 'string' && !STRICT_FORMATS.has(node.format)) problems.push(`${path}: format ${node.format}`);
    if (node.type === undefined && node.anyOf === undefined && node.$ref === undefined && node.enum === undefined && node.const === undefined)
      problems.push(`${path}: a schema needs a type`);
    if (Array.isArray(node.enum)) enums += node.enum.length;
    if (depth > 10) problems.push(`${path}: nested deeper than 10 levels`);
  });
  if (properties > 5000) problems.push(`(root): ${properties} properties`);
  if (enums > 1000) problems.push(`(root): ${enums} enum values`);
  return [...new Set(problems)];
}
