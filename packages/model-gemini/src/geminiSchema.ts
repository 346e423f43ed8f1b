import type { JsonSchema } from '@adkit/flow';

/** One change `geminiSchema` made to a schema. */
export interface GeminiSchemaChange {
  /** JSON pointer of the subschema in the schema as given (`''` is the root). */
  path: string;
  keyword: string;
  message: string;
}

/** A schema in the form Gemini accepts, and what was changed to get there. */
export interface GeminiSchema {
  schema: JsonSchema;
  changes: GeminiSchemaChange[];
}

/** The JSON types Gemini knows. */
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Formats Gemini accepts, per type (others are moved into the description). */
const FORMATS: Record<string, ReadonlySet<string>> = {
  string: new Set(['date-time', 'date', 'time', 'enum']),
  number: new Set(['float', 'double']),
  integer: new Set(['int32', 'int64']),
};
/** Keywords with no meaning for the model, dropped. */
const DROPPED = new Set(['$schema', '$id', '$anchor', '$comment', '$defs', 'definitions', '$dynamicAnchor', 'readOnly', 'writeOnly', 'discriminator', 'xml', 'externalDocs']);
/** Keywords whose value passes as it is when it has the right JSON type. */
const NUMBERS = new Set(['minItems', 'maxItems', 'minimum', 'maximum']);
const ANNOTATIONS = new Set(['title', 'description']);
/** How deep the pass expands (references inlined count); deeper parts become a described stub. */
const MAX_DEPTH = 40;
/** How many schema nodes one pass writes, so inlined references cannot blow a schema up. */
const MAX_NODES = 20_000;
/** How long one moved value may get in a description. */
const MAX_HINT = 120;

type Node = Record<string, unknown>;

/**
 * Rewrites a JSON Schema (a tool's `parametersJsonSchema` or `responseJsonSchema`, an agent's
 * `responseJsonSchema`) into the subset Gemini documents for these fields, so schemas from
 * outside (MCP servers, OpenAPI specs, zod output) are not refused. What the tool accepts never
 * changes: the tool still checks its arguments against its own schema; only what the model is
 * told is rewritten, and what Gemini cannot read moves into the description instead of vanishing.
 * - `$ref`s are inlined (local `#…` pointers, `$defs` and `definitions`); a reference to a schema
 *   being expanded (recursion) becomes a stub that says so, `$defs` go;
 * - `$schema`, `$id`, `$comment`, `readOnly`, OpenAPI's `discriminator`/`xml`, `x-…` are dropped;
 * - `oneOf` is sent as `anyOf`; `allOf` is merged into one schema;
 * - `anyOf` of plain types (`{type: "string"}`, `{type: "null"}`) collapses into `type: [...]`;
 *   keywords beside an `anyOf` move into each branch (Vertex refuses them side by side);
 * - OpenAPI's `nullable: true` becomes a `"null"` type; `const` an `enum`; `enum` keeps strings and
 *   numbers (a `null` member becomes a `"null"` type; other members move into the description);
 * - tuple `items: [...]` becomes `prefixItems`; `additionalProperties: true` (the default) goes;
 * - formats Gemini does not know (`uri`, `email`, …) and constraints outside its subset
 *   (`minLength`, `pattern`, `default`, `multipleOf`, `patternProperties`, …) move into the
 *   description (`(format: uri; minLength: 1)`);
 * - boolean schemas become objects; parts nested past 40 levels or beyond 20,000 nodes become a
 *   stub saying they were not expanded.
 * The input is not changed. `changes` lists every rewrite with its path, as `schemaReport` does
 * for OpenAI.
 */
export function geminiSchema(schema: JsonSchema): GeminiSchema {
  const pass = new Pass(schema);
  return { schema: pass.node(schema, '', [], 0), changes: pass.changes };
}

class Pass {
  readonly changes: GeminiSchemaChange[] = [];
  private nodes = 0;

  constructor(private readonly root: unknown) {}

  note(path: string, keyword: string, message: string): void {
    this.changes.push({ path, keyword, message });
  }

  node(value: unknown, path: string, refs: readonly string[], depth: number): Node {
    if (++this.nodes > MAX_NODES || depth > MAX_DEPTH) {
      this.note(path, '', `not expanded: the schema is ${depth > MAX_DEPTH ? `nested deeper than ${MAX_DEPTH} levels` : `larger than ${MAX_NODES} nodes`} once references are inlined`);
      return { description: 'Structure not expanded here (too deep or too large).' };
    }
    if (value === true || (isNode(value) && Object.keys(value).length === 0)) {
      if (value === true) this.note(path, '', 'the schema true (any value) is sent as {}');
      return {};
    }
    if (!isNode(value)) {
      this.note(path, '', `the schema ${describe(value)} is sent as an object that says no value is allowed`);
      return { description: 'No value is allowed here.' };
    }
    let node = value;
    if (typeof node.$ref === 'string') {
      const inlined = this.inline(node, path, refs, depth);
      if (!inlined.schema) return inlined.stub;
      return this.node(inlined.schema, path, inlined.refs, depth + 1);
    }
    if (Array.isArray(node.allOf)) node = this.mergeAllOf(node, path, refs, depth);
    return this.plain(node, path, refs, depth);
  }

  /** The target of a `$ref` with the reference's siblings laid over it, or a stub for a cycle or a dead end. */
  private inline(node: Node, path: string, refs: readonly string[], depth: number): { schema?: Node; refs: readonly string[]; stub: Node } {
    const ref = node.$ref as string;
    const { $ref: _ref, ...siblings } = node;
    if (refs.includes(ref)) {
      const target = resolvePointer(this.root, ref);
      this.note(path, '$ref', `recursive reference ${JSON.stringify(ref)} is not expanded again`);
      const stub: Node = { description: joinText(stringOf(siblings.description), `Same structure as ${refName(ref)} (recursive; not expanded further).`) };
      const type = isNode(target) && typeof target.type === 'string' && TYPES.has(target.type) ? target.type : undefined;
      if (type) stub.type = type;
      return { refs, stub };
    }
    const target = resolvePointer(this.root, ref);
    if (target === undefined) {
      this.note(path, '$ref', `reference ${JSON.stringify(ref)} cannot be resolved here; sent as any value`);
      return { refs, stub: { description: joinText(stringOf(siblings.description), `Unresolved reference ${ref.slice(0, MAX_HINT)}.`) } };
    }
    this.note(path, '$ref', `reference ${JSON.stringify(ref)} inlined`);
    const merged: Node = isNode(target) ? { ...target } : target === true ? {} : { not: {} };
    for (const [key, sibling] of Object.entries(siblings)) if (key !== '$defs' && key !== 'definitions') setOwn(merged, key, sibling);
    return { schema: merged, refs: [...refs, ref], stub: {} };
  }

  /** `allOf` members (references resolved) laid into one schema: properties and `required` joined, the first word on other keys. */
  private mergeAllOf(node: Node, path: string, refs: readonly string[], depth: number): Node {
    const { allOf, ...rest } = node;
    let merged: Node = { ...rest };
    (allOf as unknown[]).forEach((member, i) => {
      const resolved = this.node(member, `${path}/allOf/${i}`, refs, depth + 1);
      merged = mergeSchemas(merged, resolved);
    });
    this.note(path, 'allOf', '"allOf" merged into one schema');
    return merged;
  }

  /** A node without `$ref` or `allOf`: its keywords, one by one. */
  private plain(node: Node, path: string, refs: readonly string[], depth: number): Node {
    const out: Node = {};
    const hints: string[] = [];
    const child = (value: unknown, at: string) => this.node(value, at, refs, depth + 1);
    let types = typeList(node.type);
    for (const [key, value] of Object.entries(node)) {
      const at = `${path}/${escapePointer(key)}`;
      if (key === 'type' || key === 'nullable' || key === 'enum' || key === 'const' || key === 'format') continue;
      if (key === 'properties' && isNode(value)) {
        const properties: Node = {};
        for (const [name, property] of Object.entries(value)) setOwn(properties, name, child(property, `${at}/${escapePointer(name)}`));
        out.properties = properties;
      } else if (key === 'required' && Array.isArray(value)) {
        out.required = value.filter((name): name is string => typeof name === 'string');
      } else if (key === 'propertyOrdering' && Array.isArray(value)) {
        out.propertyOrdering = value.filter((name): name is string => typeof name === 'string');
      } else if (key === 'items') {
        if (value === false && Array.isArray(node.prefixItems)) this.note(path, key, '"items: false" after "prefixItems" dropped (no more items than listed)');
        else if (Array.isArray(value)) {
          out.prefixItems = value.map((item, i) => child(item, `${at}/${i}`));
          this.note(path, 'items', 'tuple "items" (an array of schemas) sent as "prefixItems"');
        } else out.items = child(value, at);
      } else if (key === 'prefixItems' && Array.isArray(value)) {
        out.prefixItems = value.map((item, i) => child(item, `${at}/${i}`));
      } else if (key === 'additionalItems' && Array.isArray(node.items) && isNode(value)) {
        out.items = child(value, at);
        this.note(path, key, '"additionalItems" sent as "items" (after "prefixItems")');
      } else if (key === 'additionalProperties') {
        if (value === false) out.additionalProperties = false;
        else if (value === true || (isNode(value) && Object.keys(value).length === 0)) this.note(path, key, `"additionalProperties: ${JSON.stringify(value)}" (the default) dropped`);
        else out.additionalProperties = child(value, at);
      } else if (key === 'anyOf' || key === 'oneOf') {
        if (!Array.isArray(value)) continue;
        if (key === 'oneOf') this.note(path, key, '"oneOf" sent as "anyOf"');
        const branches = value.map((branch, i) => child(branch, `${at}/${i}`));
        out.anyOf = [...((out.anyOf as Node[] | undefined) ?? []), ...branches];
      } else if (ANNOTATIONS.has(key)) {
        if (typeof value === 'string') out[key] = value;
      } else if (NUMBERS.has(key) && typeof value === 'number' && Number.isFinite(value)) {
        out[key] = value;
      } else if (DROPPED.has(key) || key.startsWith('x-')) {
        if (key !== '$defs' && key !== 'definitions') this.note(path, key, `"${key}" dropped (no meaning for the model)`);
      } else {
        hints.push(`${key}: ${hint(value)}`);
        this.note(path, key, `"${key}" is outside Gemini's schema subset; moved into the description`);
      }
    }

    // OpenAPI 3.0's nullable, literals and enums, in Gemini's terms.
    if (node.nullable === true) {
      if (types.length > 0 && !types.includes('null')) types = [...types, 'null'];
      this.note(path, 'nullable', types.length > 0 ? '"nullable: true" sent as a "null" type' : '"nullable: true" without a type dropped');
    } else if (node.nullable !== undefined) this.note(path, 'nullable', '"nullable" dropped');
    const literals = node.const !== undefined ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
    if (node.const !== undefined) this.note(path, 'const', '"const" sent as a one-member "enum"');
    if (literals) {
      const kept = literals.filter((member) => typeof member === 'string' || (typeof member === 'number' && Number.isFinite(member)));
      const hasNull = literals.includes(null);
      const others = literals.filter((member) => member !== null && !kept.includes(member));
      if (others.length > 0) {
        hints.push(`one of: ${hint(literals)}`);
        this.note(path, node.const !== undefined ? 'const' : 'enum', 'an "enum" with members other than strings and numbers is moved into the description');
      } else {
        if (kept.length > 0) out.enum = kept;
        if (hasNull) {
          if (types.length > 0 && !types.includes('null')) types = [...types, 'null'];
          this.note(path, 'enum', 'the null member of "enum" sent as a "null" type');
        }
      }
    }
    const unknownTypes = typeList(node.type, true).filter((type) => !TYPES.has(type));
    if (unknownTypes.length > 0 || (node.type !== undefined && typeList(node.type, true).length === 0))
      this.note(path, 'type', `unknown "type" ${hint(node.type)} dropped`);
    if (types.length === 1) out.type = types[0];
    else if (types.length > 1) out.type = types;
    if (typeof node.format === 'string') {
      const allowed = types.some((type) => FORMATS[type]?.has(node.format as string));
      if (allowed) out.format = node.format;
      else {
        hints.push(`format: ${node.format.slice(0, MAX_HINT)}`);
        this.note(path, 'format', `format "${node.format.slice(0, MAX_HINT)}" is not one Gemini accepts here; moved into the description`);
      }
    }
    if (hints.length > 0) out.description = joinText(stringOf(out.description), `(${hints.join('; ')})`);
    return Array.isArray(out.anyOf) ? this.settleAnyOf(out, path) : out;
  }

  /** An `anyOf` alone in its node: plain types collapse into `type`, other keywords go into each branch. */
  private settleAnyOf(node: Node, path: string): Node {
    const { anyOf, ...siblings } = node;
    const branches = (anyOf as Node[]).flatMap((branch) => (Object.keys(branch).length === 1 && Array.isArray(branch.anyOf) ? (branch.anyOf as Node[]) : [branch]));
    if (branches.length > 0 && branches.every((branch) => Object.keys(branch).length === 1 && branch.type !== undefined)) {
      const types = [...new Set(branches.flatMap((branch) => typeList(branch.type)))];
      const own = typeList(siblings.type);
      const merged = own.length > 0 ? types.filter((type) => own.includes(type) || (type === 'integer' && own.includes('number'))) : types;
      this.note(path, 'anyOf', `"anyOf" of plain types sent as "type": ${JSON.stringify(merged)}`);
      return { ...siblings, ...(merged.length === 1 ? { type: merged[0] } : merged.length > 1 ? { type: merged } : {}) };
    }
    if (Object.keys(siblings).length === 0) return { anyOf: branches };
    const { description, title, ...rest } = siblings;
    const note = joinText(stringOf(title), stringOf(description));
    const spread = branches.map((branch) => {
      const merged = mergeSchemas({ ...rest }, branch);
      // The annotation goes with each branch that says something (a bare {type: "null"} needs none).
      const own = stringOf(branch.description);
      const bareNull = Object.keys(branch).length === 1 && branch.type === 'null';
      if (note && !bareNull && !own?.includes(note)) merged.description = joinText(note, own);
      return merged;
    });
    this.note(path, 'anyOf', `keywords beside "anyOf" (${Object.keys(siblings).join(', ')}) moved into each branch`);
    return { anyOf: spread };
  }
}

/** Two sanitized schemas as one (both must hold): properties and `required` joined, types intersected, the first word elsewhere. */
function mergeSchemas(a: Node, b: Node): Node {
  const out: Node = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const current = out[key];
    if (current === undefined) setOwn(out, key, value);
    else if (key === 'properties' && isNode(current) && isNode(value)) {
      const properties: Node = { ...current };
      for (const [name, property] of Object.entries(value))
        setOwn(properties, name, isNode(properties[name]) && isNode(property) ? mergeSchemas(properties[name] as Node, property) : property);
      out.properties = properties;
    } else if (key === 'required' && Array.isArray(current) && Array.isArray(value)) out.required = [...new Set([...current, ...value])];
    else if (key === 'type') {
      const both = typeList(current).filter((type) => typeList(value).includes(type));
      if (both.length > 0) out.type = both.length === 1 ? both[0] : both;
    } else if (key === 'description' && typeof current === 'string' && typeof value === 'string' && current !== value) out.description = joinText(current, value);
  }
  return out;
}

/** The value a local reference (`#`, `#/$defs/Name`, any `#/…` JSON pointer) points at, or `undefined`. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let fragment = ref.slice(1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  if (fragment === '') return root;
  if (!fragment.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of fragment.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isNode(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

function refName(ref: string): string {
  const last = ref.split('/').pop() ?? '';
  return last && last !== '#' ? last.slice(0, MAX_HINT) : 'the whole schema';
}

function typeList(type: unknown, all = false): string[] {
  const list = typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
  return all ? list : [...new Set(list.filter((t) => TYPES.has(t)))];
}

function hint(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_HINT ? `${text.slice(0, MAX_HINT - 1)}…` : text;
}

function joinText(...parts: (string | undefined)[]): string {
  return parts.filter((part): part is string => !!part).join(' ');
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function setOwn(target: Node, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  return value === false ? 'false (no value)' : value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
