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

  node(schema: unknown, path: string): { schema: JsonSchema; plan?: NullPlan } {
    if (!isObject(schema)) {
      this.problems.push({ path, keyword: '', message: `a boolean or non-object schema (${JSON.stringify(schema)}) has no strict form` });
      return { schema: {} };
    }
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
        const match = typeof value === 'string' ? /^#\/(\$defs|definitions)\/([^/]+)$/.exec(value) : null;
        if (!match) this.problems.push({ path, keyword: key, message: `only local "#/$defs/…" references work in strict mode, not ${JSON.stringify(value)}` });
        else plan = { ...plan, ref: match[2]! };
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
 * `additionalProperties: false`, `oneOf` as `anyOf`, unsupported constraint keywords (e.g.
 * `minLength`) and formats moved into the description as hints. Schemas with structures strict
 * mode cannot express (`patternProperties`, maps, tuples, `allOf`, free-form objects, remote
 * `$ref`) do not compile: `problems` says why, and the tool is sent non-strict.
 */
export function compileStrictSchema(schema: JsonSchema): StrictSchema {
  const compiler = new Compiler();
  if (schema.type !== 'object' && !isObject(schema.properties)) {
    return { ok: false, problems: [{ path: '', keyword: 'type', message: 'the root of a strict schema must be an object' }] };
  }
  const { schema: compiled, plan } = compiler.node(schema, '');
  if (compiler.problems.length > 0) return { ok: false, problems: compiler.problems };
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
