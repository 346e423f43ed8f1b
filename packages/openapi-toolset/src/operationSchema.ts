import type { OperationEntry, ParameterObject } from './operations.js';
import { SchemaConverter, setOwn, type JsonNode, type SchemaLimits } from './toJsonSchema.js';

/** Where one argument of the model goes in the request. */
export interface ParameterSlot {
  /** The argument's key in the model's arguments. */
  readonly key: string;
  readonly parameter: ParameterObject;
  /** A `content`-described parameter: sent as JSON text. */
  readonly json: boolean;
}

/** How the request body is sent. */
export interface BodySlot {
  readonly key: string;
  readonly mediaType: string;
  readonly required: boolean;
}

/** What a tool needs to turn the model's arguments into a request. */
export interface ArgumentPlan {
  readonly parameters: readonly ParameterSlot[];
  readonly body?: BodySlot;
}

/** Names of the credentials and headers the app supplies: never the model's to set. */
export interface HiddenParameters {
  /** Lower-case header names. */
  readonly headers: ReadonlySet<string>;
  readonly query: ReadonlySet<string>;
  /** Cookie names. */
  readonly cookies: ReadonlySet<string>;
}

/** Headers OpenAPI says a parameter must not describe (3.x, Parameter Object). */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/**
 * The one object schema the model fills for an operation: each path, query, header and cookie
 * parameter under its own name (a name used in two places gets its location in front, e.g.
 * `header_id`), and the JSON request body whole under `body` — kept whole so a `oneOf` body keeps
 * its branches (adk-python #6991) and its `required` fields stay required (adk-python #6503).
 * Credentials and app headers are not in it (adk-python #1192): the app supplies them.
 */
export function operationSchema(
  operation: OperationEntry,
  hidden: HiddenParameters,
  limits: SchemaLimits,
  openapi30: boolean,
): { schema: JsonNode; plan: ArgumentPlan } {
  const converter = new SchemaConverter(limits, openapi30);
  const properties: JsonNode = {};
  const required: string[] = [];
  const slots: ParameterSlot[] = [];
  const visible = operation.parameters.filter((p) => !isHidden(p, hidden));
  const counts = new Map<string, number>();
  for (const p of visible) counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
  const taken = new Set<string>();
  for (const parameter of visible) {
    let key = (counts.get(parameter.name) ?? 0) > 1 || parameter.name === 'body' ? `${parameter.in}_${parameter.name}` : parameter.name;
    while (taken.has(key)) key = `_${key}`;
    taken.add(key);
    const contentSchema = parameter.content ? firstSchema(parameter.content) : undefined;
    const schema = converter.convert(contentSchema ?? parameter.schema);
    const notes = [`In ${parameter.in}${parameter.name !== key ? ` as "${parameter.name}"` : ''}.`];
    if (parameter.deprecated) notes.push('Deprecated.');
    schema.description = [parameter.description, typeof schema.description === 'string' ? schema.description : undefined, notes.join(' ')]
      .filter((part): part is string => typeof part === 'string' && part.length > 0)
      .map((part) => cut(part, 500))
      .join(' ');
    setOwn(properties, key, schema);
    if (parameter.required) required.push(key);
    slots.push({ key, parameter, json: contentSchema !== undefined });
  }
  let body: BodySlot | undefined;
  const requestBody = operation.requestBody;
  if (requestBody) {
    const choice = chooseMediaType(requestBody.content);
    if (choice) {
      let key = 'body';
      while (taken.has(key)) key = `_${key}`;
      const schema = choice.textual ? converter.convert(choice.schema) : { type: 'string' };
      const description = [requestBody.description, typeof schema.description === 'string' ? schema.description : undefined, `The request body, sent as ${choice.mediaType}.`]
        .filter((part): part is string => typeof part === 'string' && part.length > 0)
        .map((part) => cut(part, 500))
        .join(' ');
      schema.description = description;
      setOwn(properties, key, schema);
      if (requestBody.required) required.push(key);
      body = { key, mediaType: choice.mediaType, required: requestBody.required };
    }
  }
  const schema: JsonNode = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) schema.required = required;
  return { schema, plan: body ? { parameters: slots, body } : { parameters: slots } };
}

function isHidden(parameter: ParameterObject, hidden: HiddenParameters): boolean {
  if (parameter.in === 'header') {
    const name = parameter.name.toLowerCase();
    return IGNORED_HEADERS.has(name) || hidden.headers.has(name);
  }
  if (parameter.in === 'query') return hidden.query.has(parameter.name);
  if (parameter.in === 'cookie') return hidden.cookies.has(parameter.name);
  return false;
}

function firstSchema(content: Record<string, { schema?: unknown }>): unknown {
  for (const media of Object.values(content)) if (media && typeof media === 'object' && media.schema !== undefined) return media.schema;
  return undefined;
}

/** JSON first, then form fields, then text; anything else goes as a string of that type. */
function chooseMediaType(content: Record<string, { schema?: unknown }>): { mediaType: string; schema: unknown; textual: boolean } | undefined {
  const types = Object.keys(content);
  if (types.length === 0) return undefined;
  const pick = (test: (type: string) => boolean) => types.find((type) => test(type.toLowerCase().split(';')[0]!.trim()));
  const json = pick((t) => t === 'application/json' || t.endsWith('+json') || t === '*/*');
  if (json) return { mediaType: json === '*/*' ? 'application/json' : json, schema: content[json]?.schema, textual: true };
  const form = pick((t) => t === 'application/x-www-form-urlencoded');
  if (form) return { mediaType: form, schema: content[form]?.schema, textual: true };
  const text = pick((t) => t.startsWith('text/'));
  if (text) return { mediaType: text, schema: { type: 'string' }, textual: true };
  const other = types[0]!;
  return { mediaType: other, schema: { type: 'string' }, textual: false };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
