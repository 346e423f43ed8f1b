type SchemaNode = Record<string, unknown>;
type Definitions = ReadonlyMap<string, unknown>;

/** How deep conversion follows a value; deeper parts are left as they are (and checked as such). */
const MAX_CONVERSION_DEPTH = 100;
/** How many `$ref`s in a row conversion follows before giving up on a node. */
const MAX_REF_HOPS = 32;
/** How many schema nodes one conversion may visit, so a hostile schema (unions of unions) cannot hang it. */
const MAX_STEPS = 100_000;
const NONE: unique symbol = Symbol('none');

/** The work left for one conversion. */
interface Budget {
  steps: number;
}

/**
 * Converts the leaves of `value` that have the wrong JSON type for their place in the schema, but
 * only where the conversion is lossless: converting back gives exactly what the model sent.
 *
 * | sent                        | schema wants | becomes | because                              |
 * |-----------------------------|--------------|---------|--------------------------------------|
 * | `"12"`, `"-3"`, `"0.5"`     | number       | 12 …    | `String(12) === "12"`                |
 * | `"12"`                      | integer      | 12      | an integer that round-trips          |
 * | `"true"`, `"false"`         | boolean      | true …  | exact, lower case                    |
 * | `7`, `true`                 | string       | "7" …   | `Number("7") === 7`                  |
 * | `"12"` for `const: 12`      | a literal    | 12      | the same rules, to the literal's type |
 *
 * Everything else stays as sent, so the check that follows names the field: `"7.5"` or `7.5` for
 * an integer, `""` (not 0), `" 12"`, `"012"`, `"1e3"`, `"-0"`, `true` for a number (not 1), `1`
 * for a boolean, `"null"` for null, a string for an array. Objects and arrays are followed
 * through `properties`, `patternProperties`, `additionalProperties`, `items`, `prefixItems`,
 * `allOf`, unions (`anyOf`/`oneOf`: a value that already has a branch's type is kept; otherwise the
 * first branch it converts to losslessly wins) and `$ref`s to `$defs`/`definitions`.
 * `value` is changed in place (pass a copy); keys such as `__proto__` are written as own data.
 */
export function convertLossless(schema: unknown, value: unknown): unknown {
  return convert(schema, value, definitions(new Map(), schema), 0, { steps: MAX_STEPS });
}

function convert(schema: unknown, value: unknown, defs: Definitions, depth: number, budget: Budget): unknown {
  const node = resolve(schema, defs);
  if (!node || depth > MAX_CONVERSION_DEPTH || --budget.steps < 0) return value;
  const scope = definitions(defs, node);
  const union = (node.anyOf ?? node.oneOf) as unknown;
  // Unions and allOf count as a level too, so schemas that refer to themselves cannot loop.
  if (Array.isArray(union)) return convertUnion(union, value, scope, depth + 1, budget);
  if (Array.isArray(node.allOf)) for (const member of node.allOf) value = convert(member, value, scope, depth + 1, budget);

  if (isPlainObject(value)) {
    if (admitsType(node, 'object')) convertObject(node, value, scope, depth, budget);
    return value;
  }
  if (Array.isArray(value)) {
    if (admitsType(node, 'array')) convertArray(node, value, scope, depth, budget);
    return value;
  }
  return convertLeaf(node, value);
}

function convertUnion(branches: readonly unknown[], value: unknown, defs: Definitions, depth: number, budget: Budget): unknown {
  const fitting = branches.filter((branch) => hasShape(branch, value, defs, budget));
  if (fitting.length > 0) {
    if (typeof value !== 'object' || value === null) return value;
    // Objects: the branch whose literal fields (a discriminator such as kind: "a") agree, else the first.
    const branch = fitting.find((b) => literalsAgree(b, value as Record<string, unknown>, defs)) ?? fitting[0];
    return convert(branch, value, defs, depth, budget);
  }
  for (const branch of branches) {
    const converted = convert(branch, value, defs, depth, budget);
    if (converted !== value && hasShape(branch, converted, defs, budget)) return converted;
  }
  return value;
}

function convertObject(node: SchemaNode, value: Record<string, unknown>, defs: Definitions, depth: number, budget: Budget): void {
  const properties = isNode(node.properties) ? node.properties : undefined;
  const patterns = isNode(node.patternProperties) ? Object.entries(node.patternProperties) : [];
  const additional = node.additionalProperties;
  for (const key of Object.keys(value)) {
    let child: unknown = properties && Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (child === undefined) child = patterns.find(([pattern]) => matches(pattern, key))?.[1];
    if (child === undefined && isNode(additional)) child = additional;
    if (child === undefined) continue;
    const before = value[key];
    const after = convert(child, before, defs, depth + 1, budget);
    if (after !== before) Object.defineProperty(value, key, { value: after, writable: true, enumerable: true, configurable: true });
  }
}

function convertArray(node: SchemaNode, value: unknown[], defs: Definitions, depth: number, budget: Budget): void {
  // Draft 2020-12 tuples: prefixItems then items; older ones (TypeBox's Tuple): items[] then additionalItems.
  const positional = Array.isArray(node.prefixItems) ? node.prefixItems : Array.isArray(node.items) ? node.items : [];
  const rest = Array.isArray(node.items) ? node.additionalItems : node.items;
  for (let i = 0; i < value.length; i++) {
    const child = i < positional.length ? positional[i] : rest;
    if (child !== undefined) value[i] = convert(child, value[i], defs, depth + 1, budget);
  }
}

/** A primitive converted to the node's literal or type, or left as it is. */
function convertLeaf(node: SchemaNode, value: unknown): unknown {
  if (node.const !== undefined) {
    if (value === node.const) return value;
    const converted = toType(value, jsonType(node.const));
    return converted === node.const ? converted : value;
  }
  if (Array.isArray(node.enum)) {
    if (node.enum.includes(value)) return value;
    for (const member of node.enum) if (toType(value, jsonType(member)) === member) return member;
    return value;
  }
  const types = typeList(node);
  if (types.length === 0 || types.some((type) => isOfType(value, type))) return value;
  for (const type of types) {
    const converted = toType(value, type);
    if (converted !== NONE) return converted;
  }
  return value;
}

/** The lossless conversion of a primitive to a JSON type, or `NONE`. */
function toType(value: unknown, type: string | undefined): unknown {
  switch (type) {
    case 'number':
    case 'integer': {
      if (typeof value !== 'string') return NONE;
      const number = Number(value);
      if (!Number.isFinite(number) || String(number) !== value) return NONE;
      return type === 'integer' && !Number.isInteger(number) ? NONE : number;
    }
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : NONE;
    case 'string':
      if (typeof value === 'boolean') return String(value);
      return typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0) ? String(value) : NONE;
    default:
      return NONE;
  }
}

/** Whether every property of the branch that is a primitive literal has that value in `value`. */
function literalsAgree(schema: unknown, value: Record<string, unknown>, defs: Definitions): boolean {
  const node = resolve(schema, defs);
  if (!node || !isNode(node.properties)) return false;
  let literals = 0;
  for (const [key, property] of Object.entries(node.properties)) {
    const literal = resolve(property, defs)?.const;
    if (literal === undefined || (typeof literal === 'object' && literal !== null)) continue;
    literals++;
    if (!Object.hasOwn(value, key) || value[key] !== literal) return false;
  }
  return literals > 0;
}

/** Whether the value has the node's shape at the top: its literal, enum member or JSON type. */
function hasShape(schema: unknown, value: unknown, defs: Definitions, budget: Budget, hops = 0): boolean {
  if (hops > MAX_REF_HOPS || --budget.steps < 0) return false;
  const node = resolve(schema, defs);
  if (!node) return schema !== false;
  const scope = definitions(defs, node);
  const union = (node.anyOf ?? node.oneOf) as unknown;
  if (Array.isArray(union) && !union.some((branch) => hasShape(branch, value, scope, budget, hops + 1))) return false;
  if (Array.isArray(node.allOf) && !node.allOf.every((member) => hasShape(member, value, scope, budget, hops + 1))) return false;
  if (node.const !== undefined && (typeof node.const !== 'object' || node.const === null)) return value === node.const;
  if (Array.isArray(node.enum) && node.enum.every((member) => typeof member !== 'object' || member === null))
    return node.enum.includes(value);
  const types = typeList(node);
  return types.length === 0 || types.some((type) => isOfType(value, type));
}

function isOfType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

function admitsType(node: SchemaNode, type: 'object' | 'array'): boolean {
  const types = typeList(node);
  if (types.length > 0) return types.includes(type);
  return type === 'object'
    ? node.properties !== undefined || node.patternProperties !== undefined || node.additionalProperties !== undefined
    : node.items !== undefined || node.prefixItems !== undefined;
}

function typeList(node: SchemaNode): string[] {
  const type = node.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

function jsonType(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (Number.isInteger(value)) return 'integer';
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' ? type : undefined;
}

/** The schema node behind `$ref`s (`#/$defs/Name`, `#/definitions/Name` or TypeBox's `Name`). */
function resolve(schema: unknown, defs: Definitions): SchemaNode | undefined {
  let node = schema;
  for (let hops = 0; isNode(node) && typeof node.$ref === 'string'; hops++) {
    if (hops >= MAX_REF_HOPS) return undefined;
    const name = node.$ref.replace(/^#\/(\$defs|definitions)\//, '');
    if (!defs.has(name)) return undefined;
    node = defs.get(name);
  }
  return isNode(node) ? node : undefined;
}

/** The definitions in scope at a node: the outer ones plus the node's own `$defs`/`definitions`. */
function definitions(outer: Definitions, schema: unknown): Definitions {
  if (!isNode(schema)) return outer;
  const own = [schema.$defs, schema.definitions].filter(isNode);
  if (own.length === 0) return outer;
  const scope = new Map(outer);
  for (const map of own) for (const [name, definition] of Object.entries(map)) scope.set(name, definition);
  return scope;
}

function matches(pattern: string, key: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(key);
  } catch {
    return false;
  }
}

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
