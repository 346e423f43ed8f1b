// A checker of the JSON Schema subset Gemini documents for `parametersJsonSchema` and
// `responseJsonSchema` (ai.google.dev, "JSON Schema support"; genai's GenerateContentConfig
// docs): type, format, title, description, enum (strings and numbers), items, prefixItems,
// minItems, maxItems, minimum, maximum, anyOf, oneOf (as anyOf), properties,
// additionalProperties, required, propertyOrdering; $ref/$defs also documented, but held to
// Vertex AI's stricter rules here: no references (inlined), nothing beside an anyOf
// (google/adk-go#1659), formats by type as the Vertex Schema reference lists them.
import type { JsonSchema } from '@adkit/flow';

const KEYWORDS = new Set([
  'type', 'format', 'title', 'description', 'enum', 'items', 'prefixItems', 'minItems', 'maxItems',
  'minimum', 'maximum', 'anyOf', 'properties', 'additionalProperties', 'required', 'propertyOrdering',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const FORMATS: Record<string, string[]> = { string: ['date-time', 'date', 'time', 'enum'], number: ['float', 'double'], integer: ['int32', 'int64'] };

/** What Gemini (and Vertex AI) would refuse in a schema, as `pointer: problem` lines; empty when none. */
export function geminiSubsetProblems(schema: unknown): string[] {
  const problems: string[] = [];
  const visit = (node: unknown, path: string, depth: number): void => {
    if (depth > 60) return void problems.push(`${path}: nested deeper than 60 levels`);
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return void problems.push(`${path}: a schema must be an object, got ${JSON.stringify(node)}`);
    const n = node as JsonSchema;
    for (const key of Object.keys(n)) if (!KEYWORDS.has(key)) problems.push(`${path}: "${key}" is not in the subset`);
    if (n.anyOf !== undefined) {
      if (!Array.isArray(n.anyOf) || n.anyOf.length === 0) problems.push(`${path}: anyOf must be a non-empty list`);
      const siblings = Object.keys(n).filter((key) => key !== 'anyOf');
      if (siblings.length > 0) problems.push(`${path}: anyOf beside ${siblings.join(', ')}`);
    }
    const types = n.type === undefined ? [] : Array.isArray(n.type) ? n.type : [n.type];
    for (const type of types) if (typeof type !== 'string' || !TYPES.has(type)) problems.push(`${path}: unknown type ${JSON.stringify(type)}`);
    if (Array.isArray(n.type) && n.type.length < 2) problems.push(`${path}: a type list needs two or more types`);
    if (n.enum !== undefined && (!Array.isArray(n.enum) || n.enum.length === 0 || !n.enum.every((m) => typeof m === 'string' || typeof m === 'number')))
      problems.push(`${path}: enum must list strings or numbers`);
    if (n.format !== undefined && !types.some((type) => FORMATS[type as string]?.includes(n.format as string)))
      problems.push(`${path}: format ${JSON.stringify(n.format)} for type ${JSON.stringify(n.type)}`);
    for (const key of ['title', 'description']) if (n[key] !== undefined && typeof n[key] !== 'string') problems.push(`${path}: ${key} must be a string`);
    for (const key of ['minItems', 'maxItems', 'minimum', 'maximum']) if (n[key] !== undefined && typeof n[key] !== 'number') problems.push(`${path}: ${key} must be a number`);
    for (const key of ['required', 'propertyOrdering'])
      if (n[key] !== undefined && !(Array.isArray(n[key]) && (n[key] as unknown[]).every((k) => typeof k === 'string'))) problems.push(`${path}: ${key} must list names`);
    if (n.items !== undefined) visit(n.items, `${path}/items`, depth + 1);
    if (n.additionalProperties !== undefined && n.additionalProperties !== false) visit(n.additionalProperties, `${path}/additionalProperties`, depth + 1);
    if (n.properties !== undefined) {
      if (typeof n.properties !== 'object' || n.properties === null || Array.isArray(n.properties)) problems.push(`${path}: properties must be an object`);
      else for (const [name, child] of Object.entries(n.properties)) visit(child, `${path}/properties/${name}`, depth + 1);
    }
    for (const key of ['anyOf', 'prefixItems'])
      if (Array.isArray(n[key])) (n[key] as unknown[]).forEach((child, i) => visit(child, `${path}/${key}/${i}`, depth + 1));
  };
  visit(schema, '', 0);
  return problems;
}
