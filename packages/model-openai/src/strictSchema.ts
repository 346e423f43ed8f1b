import type { JsonSchema } from '@adkit/flow';
import { isObject } from './toJsonSchema.js';

/** Keywords OpenAI strict mode accepts (structured outputs, 2025). */
const STRICT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'title',
  'pattern',
  'format',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
]);
/** Keywords with no meaning for the model, dropped silently. */
const SILENT_KEYWORDS = new Set(['$schema', '$id', '$comment', '$anchor', 'examples', 'readOnly', 'writeOnly', 'deprecated']);
/** Structures strict mode cannot express: a schema using one is sent non-strict instead. */
export const STRICT_STRUCTURAL_KEYWORDS = new Set([
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'prefixItems',
  'additionalItems',
  'contains',
]);
/** String formats strict mode accepts. */
export const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** The key of the root's null plan among `defs`, for `$ref: "#"`. */
const ROOT_PLAN = '#';

/** How to turn the nulls of originally optional keys back into absent keys. */
export interface NullPlan {
  props?: Record<string, { dropNull: boolean; plan?: NullPlan }>;
  items?: NullPlan;
  anyOf?: NullPlan[];
  ref?: string;
}

/** One change strict compilation made or one reason it could not compile. */
export interface StrictNote {
  /** JSON pointer of the subschema. */
  path: string;
  keyword: string;
  message: string;
}

/** The result of compiling a schema to OpenAI strict form. */
export type StrictSchema =
  | { ok: true; schema: JsonSchema; plan: NullPlan; defs: Record<string, NullPlan>; changes: StrictNote[] }
  | { ok: false; problems: StrictNote[] };

class Compiler {
  readonly problems: StrictNote[] = [];
  readonly changes: StrictNote[] = [];
  readonly defs: Record<string, NullPlan> = {};

  node(given: unknown, path: string): { schema: JsonSchema; plan?: NullPlan } {
    if (!isObject(given)) {
      this.problems.push({ path, keyword: '', message: `a boolean or non-object schema (${JSON.stringify(given)}) has no strict form` });
      return { schema: {} };
    }
    const merged = Array.isArray(given.allOf) ? mergeAllOf(given) : undefined;
    if (merged) this.changes.push({ path, keyword: 'allOf', message: '"allOf" merged into one schema' });
    const schema: JsonSchema = merged ?? given;
    const out: JsonSchema = {};
    const hints: string[] = [];
    let plan: NullPlan | undefined;
    for (const [key, value] of Object.entries(schema)) {
      if (STRICT_STRUCTURAL_KEYWORDS.has(key)) {
        this.problems.push({ path, keyword: key, message: `"${key}" cannot be expressed in strict mode` });
      } else if (key === 'oneOf' || key === 'anyOf') {
        if (!Array.isArray(value)) continue;
        const branches = value.map((branch: unknown, i) => this.node(branch, `${path}/${key}/${i}`));
        out.anyOf = branches.map((b) => b.schema);
        if (key === 'oneOf') this.changes.push({ path, keyword: key, message: '"oneOf" is sent as "anyOf"' });
        if (branches.some((b) => b.plan)) plan = { ...plan, anyOf: branches.map((b) => b.plan ?? {}) };
      } else if (key === '$ref') {
        // `#` is the root (a recursive schema, as zod writes it); `#/$defs/Name` a definition.
        const match = typeof value === 'string' ? /^#(?:\/(\$defs|definitions)\/([^/]+))?$/.exec(value) : null;
        if (!match) this.problems.push({ path, keyword: key, message: `only local "#/$defs/…" or "#" references work in strict mode, not ${JSON.stringify(value)}` });
        else plan = { ...plan, ref: match[2] ?? ROOT_PLAN };
        out.$ref = value;
      } else if ((key === '$defs' || key === 'definitions') && isObject(value)) {
        out[key] = Object.fromEntries(
          Object.entries(value).map(([name, def]) => {
            const compiled = this.node(def, `${path}/${key}/${name}`);
            this.defs[name] = compiled.plan ?? {};
            return [name, compiled.schema];
          }),
        );
      } else if (key === 'items') {
        if (Array.isArray(value)) {
          this.problems.push({ path, keyword: key, message: 'tuple "items" (an array of schemas) cannot be expressed in strict mode' });
          continue;
        }
        const items = this.node(value, `${path}/items`);
        out.items = items.schema;
        if (items.plan) plan = { ...plan, items: items.plan };
      } else if (key === 'properties' || key === 'required' || key === 'additionalProperties') {
        // Handled with the object below.
      } else if (key === 'format' && typeof value === 'string' && !STRICT_FORMATS.has(value)) {
        hints.push(`format: ${value}`);
        this.changes.push({ path, keyword: key, message: `format "${value}" is not supported in strict mode; moved into the description` });
      } else if (STRICT_KEYWORDS.has(key)) {
        out[key] = value;
      } else if (SILENT_KEYWORDS.has(key)) {
        // No meaning for the model.
      } else {
        hints.push(`${key}: ${JSON.stringify(value)}`);
        this.changes.push({ path, keyword: key, message: `"${key}" is not supported in strict mode; moved into the description` });
      }
    }
    const isObjectSchema = schema.type === 'object' || isObject(schema.properties);
    if (isObjectSchema) plan = { ...plan, ...this.object(schema, out, path) };
    if (Array.isArray(schema.type) ? schema.type.includes('array') : schema.type === 'array') {
      if (schema.items === undefined) this.problems.push({ path, keyword: 'items', message: 'an array schema needs "items" in strict mode' });
    }
    if (out.type === undefined && out.anyOf === undefined && out.$ref === undefined && out.enum === undefined && out.const === undefined) {
      this.problems.push({ path, keyword: 'type', message: 'a schema without "type" (any value) cannot be expressed in strict mode' });
    }
    if (hints.length > 0) {
      const description = typeof out.description === 'string' && out.description ? `${out.description} ` : '';
      out.description = `${description}(${hints.join('; ')})`;
    }
    return plan ? { schema: out, plan } : { schema: out };
  }

  object(schema: JsonSchema, out: JsonSchema, path: string): NullPlan {
    const additional = schema.additionalProperties;
    const properties = isObject(schema.properties) ? schema.properties : {};
    if (additional !== undefined && additional !== false) {
      this.problems.push({
        path,
        keyword: 'additionalProperties',
        message: 'a map or open object (additionalProperties other than false) cannot be expressed in strict mode',
      });
    } else if (additional === undefined) {
      this.changes.push({ path, keyword: 'additionalProperties', message: 'additionalProperties set to false' });
    }
    if (path !== '' && Object.keys(properties).length === 0 && additional !== false) {
      this.problems.push({ path, keyword: 'properties', message: 'an object without properties (free-form) cannot be expressed in strict mode' });
    }
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const props: NonNullable<NullPlan['props']> = {};
    const outProps: JsonSchema = {};
    for (const [name, child] of Object.entries(properties)) {
      const compiled = this.node(child, `${path}/properties/${escapePointer(name)}`);
      let childSchema = compiled.schema;
      const optional = !required.has(name);
      const nullable = acceptsNull(childSchema);
      if (optional && !nullable) {
        childSchema = makeNullable(childSchema);
        this.changes.push({
          path: `${path}/properties/${escapePointer(name)}`,
          keyword: 'required',
          message: `optional "${name}" becomes required and nullable; a null from the model is removed again`,
        });
      }
      outProps[name] = childSchema;
      props[name] = { dropNull: optional && !nullable, ...(compiled.plan ? { plan: compiled.plan } : {}) };
    }
    out.type = out.type ?? 'object';
    out.properties = outProps;
    out.required = Object.keys(outProps);
    out.additionalProperties = false;
    return { props };
  }
}

function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Whether a schema already accepts null. */
export function acceptsNull(schema: JsonSchema): boolean {
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  if (Array.isArray(schema.anyOf) && schema.anyOf.some((b) => isObject(b) && acceptsNull(b))) return true;
  return schema.const === null || (Array.isArray(schema.enum) && schema.enum.includes(null));
}

function makeNullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && schema.const === undefined && schema.$ref === undefined) {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null];
    return out;
  }
  if (Array.isArray(schema.type) && schema.const === undefined) {
    const out: JsonSchema = { ...schema, type: [...(schema.type as unknown[]), 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null];
    return out;
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...(schema.anyOf as unknown[]), { type: 'null' }] };
  const { description, title, ...rest } = schema;
  return {
    anyOf: [rest, { type: 'null' }],
    ...(description !== undefined ? { description } : {}),
    ...(title !== undefined ? { title } : {}),
  };
}

/**
 * Compiles a JSON Schema to OpenAI's strict form: every property required, optional ones nullable,
 * `additionalProperties: false`, `oneOf` as `anyOf`, an `allOf` of plain object schemas merged
 * into one, `$ref: "#"` (recursion to the root, as zod writes it) kept, unsupported constraint
 * keywords (e.g. `minLength`) and formats moved into the description as hints. Schemas with
 * structures strict mode cannot express (`patternProperties`, maps, tuples, other `allOf`s,
 * free-form objects, remote `$ref`) do not compile: `problems` says why, and the tool is sent
 * non-strict (through `openaiSchema`).
 */
export function compileStrictSchema(schema: JsonSchema): StrictSchema {
  const compiler = new Compiler();
  const root = (Array.isArray(schema.allOf) ? mergeAllOf(schema) : undefined) ?? schema;
  if (root.type !== 'object' && !isObject(root.properties)) {
    return { ok: false, problems: [{ path: '', keyword: 'type', message: 'the root of a strict schema must be an object' }] };
  }
  const { schema: compiled, plan } = compiler.node(schema, '');
  if (compiler.problems.length === 0) compiler.problems.push(...strictLimits(compiled));
  if (compiler.problems.length > 0) return { ok: false, problems: compiler.problems };
  compiler.defs[ROOT_PLAN] = plan ?? {};
  return { ok: true, schema: compiled, plan: plan ?? {}, defs: compiler.defs, changes: compiler.changes };
}

/** Removes the nulls the model sent for keys that were optional before strict compilation. */
export function removeStrictNulls(value: unknown, plan: NullPlan, defs: Record<string, NullPlan>, depth = 0): unknown {
  if (depth > 64) return value;
  const resolved = plan.ref ? (defs[plan.ref] ?? {}) : plan;
  if (Array.isArray(value)) return resolved.items ? value.map((item) => removeStrictNulls(item, resolved.items!, defs, depth + 1)) : value;
  if (!isObject(value)) return value;
  let target = resolved;
  if (!target.props && target.anyOf) {
    target = target.anyOf.find((branch) => branch.props && Object.keys(value).every((key) => key in branch.props!)) ?? target;
  }
  if (!target.props) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const prop = target.props[key];
    if (prop?.dropNull && item === null) continue;
    out[key] = prop?.plan ? removeStrictNulls(item, prop.plan, defs, depth + 1) : item;
  }
  return out;
}

/** Keywords an `allOf` member may use to be merged: plain object structure and annotations. */
const MERGEABLE = new Set(['type', 'properties', 'required', 'additionalProperties', 'description', 'title']);

/**
 * An `allOf` of plain object schemas (properties, `required`, annotations; no references or
 * unions) as one object schema: properties and `required` joined. `undefined` when a member is
 * anything else or two members declare the same property (strict mode then refuses the schema).
 */
function mergeAllOf(schema: JsonSchema): JsonSchema | undefined {
  const { allOf, ...rest } = schema;
  const members = [rest, ...(allOf as unknown[])];
  const properties: JsonSchema = {};
  const required = new Set<string>();
  let additional: unknown;
  const annotations: string[] = [];
  for (const member of members) {
    if (!isObject(member)) return undefined;
    for (const key of Object.keys(member)) if (!MERGEABLE.has(key)) return undefined;
    if (member.type !== undefined && member.type !== 'object') return undefined;
    if (member.additionalProperties !== undefined) {
      if (member.additionalProperties !== false) return undefined;
      additional = false;
    }
    if (typeof member.description === 'string' && member.description) annotations.push(member.description);
    if (isObject(member.properties))
      for (const [name, child] of Object.entries(member.properties)) {
        if (Object.hasOwn(properties, name)) return undefined;
        Object.defineProperty(properties, name, { value: child, enumerable: true, writable: true, configurable: true });
      }
    if (Array.isArray(member.required)) for (const name of member.required) if (typeof name === 'string') required.add(name);
  }
  return {
    type: 'object',
    ...(typeof rest.title === 'string' ? { title: rest.title } : {}),
    ...(annotations.length > 0 ? { description: annotations.join(' ') } : {}),
    properties,
    required: [...required],
    ...(additional === false ? { additionalProperties: false } : {}),
  };
}

/** What `openaiSchema` gives: the schema OpenAI accepts outside strict mode, and what changed. */
export interface OpenAiSchema {
  schema: JsonSchema;
  changes: StrictNote[];
}

const SUBSCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas'];
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SUBSCHEMA_SINGLE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems'];

/**
 * The OpenAI adapter's pass for a schema sent outside strict mode (#26): what OpenAI's function
 * calling refuses becomes what it accepts, without changing what the tool accepts (the tool still
 * checks its arguments with its own schema). An array schema without `items` gets `items: {}`
 * ("array schema missing items"); a tuple (`items: [...]`, draft 04–07) becomes `prefixItems`
 * with `items` allowing any of its members. The input is not changed; each rewrite is listed. With
 * `strict: true`, `compileStrictSchema` then works on this result.
 */
export function openaiSchema(schema: JsonSchema): OpenAiSchema {
  const changes: StrictNote[] = [];
  const visit = (node: unknown, path: string, depth: number): unknown => {
    if (!isObject(node) || depth > 200) return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      let copy: unknown = value;
      if (SUBSCHEMA_MAPS.includes(key) && isObject(value)) {
        const map: JsonSchema = {};
        for (const [name, child] of Object.entries(value))
          Object.defineProperty(map, name, { value: visit(child, `${path}/${key}/${escapePointer(name)}`, depth + 1), enumerable: true, writable: true, configurable: true });
        copy = map;
      } else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value)) copy = value.map((child, i) => visit(child, `${path}/${key}/${i}`, depth + 1));
      else if (SUBSCHEMA_SINGLE.includes(key) && !Array.isArray(value)) copy = visit(value, `${path}/${key}`, depth + 1);
      Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    }
    if (Array.isArray(node.items)) {
      const members = node.items.map((child, i) => visit(child, `${path}/items/${i}`, depth + 1));
      out.prefixItems = members;
      out.items = members.length > 0 ? { anyOf: members } : {};
      changes.push({ path, keyword: 'items', message: 'tuple "items" (an array of schemas) sent as "prefixItems", with "items" allowing any of them' });
    }
    if (typeof out.items === 'boolean') {
      // `items: false` after prefixItems (no more items than listed, as zod writes tuples), or true.
      const listed = Array.isArray(out.prefixItems) ? (out.prefixItems as unknown[]) : [];
      out.items = out.items === false && listed.length > 0 ? { anyOf: listed } : {};
      changes.push({ path, keyword: 'items', message: `"items": ${String(node.items)} sent as a schema (OpenAI takes no boolean "items")` });
    }
    const isArray = node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'));
    if (isArray && out.items === undefined) {
      out.items = {};
      changes.push({ path, keyword: 'items', message: 'an array schema without "items" sent with "items": {} (any item)' });
    }
    return out;
  };
  return { schema: visit(schema, '', 0) as JsonSchema, changes };
}

/** OpenAI's documented size limits of a strict schema (structured outputs). */
const STRICT_MAX_DEPTH = 10;
const STRICT_MAX_PROPERTIES = 5000;
const STRICT_MAX_ENUM_VALUES = 1000;

/** Where a compiled schema exceeds strict mode's limits: nesting, properties, enum values. */
function strictLimits(schema: JsonSchema): StrictNote[] {
  let properties = 0;
  let enumValues = 0;
  let deepest = { depth: 0, path: '' };
  const visit = (node: unknown, path: string, depth: number): void => {
    if (!isObject(node)) return;
    if (isObject(node.properties)) {
      depth++;
      if (depth > deepest.depth) deepest = { depth, path };
      for (const [name, child] of Object.entries(node.properties)) {
        properties++;
        visit(child, `${path}/properties/${escapePointer(name)}`, depth);
      }
    }
    if (Array.isArray(node.enum)) enumValues += node.enum.length;
    if (isObject(node.items)) visit(node.items, `${path}/items`, depth);
    if (Array.isArray(node.anyOf)) node.anyOf.forEach((branch, i) => visit(branch, `${path}/anyOf/${i}`, depth));
    for (const key of ['$defs', 'definitions'])
      if (isObject(node[key])) for (const [name, def] of Object.entries(node[key] as JsonSchema)) visit(def, `${path}/${key}/${escapePointer(name)}`, 0);
  };
  visit(schema, '', 0);
  const problems: StrictNote[] = [];
  if (deepest.depth > STRICT_MAX_DEPTH)
    problems.push({ path: deepest.path, keyword: 'properties', message: `objects nest ${deepest.depth} levels deep; strict mode allows ${STRICT_MAX_DEPTH}` });
  if (properties > STRICT_MAX_PROPERTIES)
    problems.push({ path: '', keyword: 'properties', message: `${properties} object properties in all; strict mode allows ${STRICT_MAX_PROPERTIES}` });
  if (enumValues > STRICT_MAX_ENUM_VALUES)
    problems.push({ path: '', keyword: 'enum', message: `${enumValues} enum values in all; strict mode allows ${STRICT_MAX_ENUM_VALUES}` });
  return problems;
}
