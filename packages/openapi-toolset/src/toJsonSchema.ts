/** A JSON Schema node as plain JSON. */
export type JsonNode = Record<string, unknown>;

/** Bounds on converting one operation's schemas, so a huge or hostile description stays cheap. */
export interface SchemaLimits {
  /** How deep a schema is followed; deeper parts become "any value" (the server still checks). */
  maxDepth: number;
  /** How many schema nodes one operation may produce in all; the rest become "any value". */
  maxNodes: number;
}

/** Keywords passed to the model as they are (JSON Schema 2020-12 and OpenAPI 3.0 share them). */
const KEPT = new Set([
  'type',
  'title',
  'description',
  'default',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'deprecated',
]);
const SCHEMA_MAPS = ['properties', 'patternProperties'] as const;
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SCHEMA_SINGLE = ['items', 'additionalProperties', 'not'] as const;

/** The state of converting the schemas of one operation. */
export class SchemaConverter {
  private nodes = 0;

  constructor(
    private readonly limits: SchemaLimits,
    /** OpenAPI 3.0: `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`. */
    private readonly openapi30: boolean,
  ) {}

  /**
   * A dereferenced OpenAPI Schema Object (shared objects, possibly cyclic: the parser keeps
   * cycles as object references) as a plain JSON Schema tree for a request: 3.0's `nullable`
   * becomes a `null` type, boolean exclusive bounds become numbers, `readOnly` properties are
   * dropped, vendor extensions and documentation-only keywords (`xml`, `discriminator`,
   * `externalDocs`, `example(s)`) are left out. A cycle, the depth limit or the node budget cuts the schema to
   * "any value of this type" with a note: the tool then accepts more than the spec says and the
   * server decides, which is the safe direction.
   */
  convert(schema: unknown): JsonNode {
    return this.node(schema, 0, new Set());
  }

  private node(schema: unknown, depth: number, ancestors: Set<object>): JsonNode {
    if (schema === true || schema === undefined) return {};
    if (schema === false) return { not: {} };
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return {};
    const source = schema as JsonNode;
    // An external $ref left by the parser (external references are never followed).
    if (typeof source.$ref === 'string') return { description: `See ${String(source.$ref).slice(0, 200)}.` };
    if (ancestors.has(source) || depth >= this.limits.maxDepth || ++this.nodes > this.limits.maxNodes) {
      return cutNode(source, ancestors.has(source) ? 'a recursive structure' : 'a deeply nested structure');
    }
    ancestors.add(source);
    try {
      return this.convertNode(source, depth, ancestors);
    } finally {
      ancestors.delete(source);
    }
  }

  private convertNode(source: JsonNode, depth: number, ancestors: Set<object>): JsonNode {
    const out: JsonNode = {};
    for (const key of Object.keys(source)) {
      if (KEPT.has(key)) setOwn(out, key, jsonCopy(source[key]));
    }
    if (typeof source.type === 'string' || Array.isArray(source.type)) out.type = source.type;
    // Patterns are checked in Unicode mode (as adkit compiles them); one that is not valid there
    // (e.g. `[\w-]`) is told to the model instead of failing the whole toolset.
    if (typeof out.pattern === 'string' && !validPattern(out.pattern)) {
      out.description = `${typeof out.description === 'string' ? `${out.description} ` : ''}Pattern: ${out.pattern.slice(0, 200)}`;
      delete out.pattern;
    }
    if (this.openapi30) {
      if (source.exclusiveMinimum === true && typeof source.minimum === 'number') {
        out.exclusiveMinimum = source.minimum;
        delete out.minimum;
      }
      if (source.exclusiveMaximum === true && typeof source.maximum === 'number') {
        out.exclusiveMaximum = source.maximum;
        delete out.maximum;
      }
    } else {
      if (typeof source.exclusiveMinimum === 'number') out.exclusiveMinimum = source.exclusiveMinimum;
      if (typeof source.exclusiveMaximum === 'number') out.exclusiveMaximum = source.exclusiveMaximum;
    }
    for (const key of SCHEMA_MAPS) {
      const map = source[key];
      if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
      const converted: JsonNode = {};
      for (const [name, child] of Object.entries(map as JsonNode)) {
        if (key === 'properties' && isReadOnly(child)) continue;
        setOwn(converted, name, this.node(child, depth + 1, ancestors));
      }
      out[key] = converted;
    }
    for (const key of SCHEMA_LISTS) {
      const list = source[key];
      if (Array.isArray(list)) out[key] = list.map((child) => this.node(child, depth + 1, ancestors));
    }
    for (const key of SCHEMA_SINGLE) {
      const child = source[key];
      if (child === undefined) continue;
      if (key === 'additionalProperties' && typeof child === 'boolean') out[key] = child;
      else if (key === 'items' && Array.isArray(child)) out.prefixItems = child.map((c) => this.node(c, depth + 1, ancestors));
      else out[key] = this.node(child, depth + 1, ancestors);
    }
    if (Array.isArray(source.required)) {
      const properties = out.properties as JsonNode | undefined;
      // Required names stay only when declared: a readOnly property dropped above is not required
      // in a request, and providers refuse a required name that is not a property (Gemini).
      const required = properties ? source.required.filter((name): name is string => typeof name === 'string' && Object.hasOwn(properties, name)) : [];
      if (required.length > 0) out.required = [...new Set(required)];
    }
    // Providers refuse an array schema without items (OpenAI); the spec often leaves it out.
    if (isArrayType(out.type) && out.items === undefined && out.prefixItems === undefined) out.items = {};
    if (this.openapi30 && source.nullable === true) return nullable(out);
    return out;
  }
}

/** "Any value" for a part that is cut, keeping its type and saying why. */
function cutNode(source: JsonNode, why: string): JsonNode {
  const out: JsonNode = {};
  if (typeof source.type === 'string' || Array.isArray(source.type)) out.type = source.type;
  if (isArrayType(out.type)) out.items = {};
  const title = typeof source.title === 'string' ? ` (${source.title.slice(0, 100)})` : '';
  out.description = `${typeof source.description === 'string' ? `${source.description.slice(0, 200)} ` : ''}Part of ${why}${title}: given as JSON, checked by the server.`;
  return out;
}

/** 3.0 `nullable: true` as JSON Schema: `null` joins the type (or the union). */
function nullable(node: JsonNode): JsonNode {
  if (typeof node.type === 'string') {
    node.type = [node.type, 'null'];
    if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
    return node;
  }
  if (Array.isArray(node.type)) {
    if (!node.type.includes('null')) node.type = [...node.type, 'null'];
    return node;
  }
  return { anyOf: [node, { type: 'null' }] };
}

function validPattern(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

function isReadOnly(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as JsonNode).readOnly === true;
}

function isArrayType(type: unknown): boolean {
  return type === 'array' || (Array.isArray(type) && type.includes('array'));
}

/** Sets a key as an own data property, `__proto__` included. */
export function setOwn(target: JsonNode, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** A JSON copy of a keyword's value (enums, defaults, examples), bounded so a cycle cannot hang it. */
function jsonCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return undefined;
  }
}
