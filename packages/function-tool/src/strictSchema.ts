import { SUBSCHEMA_KEYWORDS } from '@adkit/tool';

type SchemaNode = Record<string, unknown>;

const { maps: SCHEMA_MAPS, values: SCHEMA_VALUES } = SUBSCHEMA_KEYWORDS;
/** The list keywords; `items` is left to SCHEMA_VALUES, which copies a tuple's list too. */
const SCHEMA_LISTS = SUBSCHEMA_KEYWORDS.lists.filter((key) => key !== 'items');

/**
 * A copy of the schema in which every object schema that says nothing about extra keys refuses
 * them (`additionalProperties: false`), except the members of an `allOf` (they would refuse each
 * other's keys). Non-enumerable markers (TypeBox's `~kind`) are kept. Used only to decide whether
 * arguments need cleaning: the original schema stays the judge of validity.
 */
export function strictSchema<T extends object>(schema: T): T {
  return copy(schema as SchemaNode, true) as T;
}

/** Whether any schema node in the tree has a `default`. */
export function hasDefaults(schema: object): boolean {
  let found = false;
  visit(schema as SchemaNode, (node) => {
    if (node.default !== undefined) found = true;
  });
  return found;
}

function copy(node: SchemaNode, strict: boolean): SchemaNode {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const result = Object.defineProperties({}, Object.getOwnPropertyDescriptors(node)) as SchemaNode;
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (isNode(map)) result[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, copy(v as SchemaNode, true)]));
  }
  for (const key of SCHEMA_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) result[key] = list.map((member) => copy(member as SchemaNode, key !== 'allOf'));
  }
  for (const key of SCHEMA_VALUES) {
    const value = node[key];
    if (Array.isArray(value)) result[key] = value.map((member) => copy(member as SchemaNode, true));
    else if (isNode(value)) result[key] = copy(value, true);
  }
  if (
    strict &&
    isObjectNode(node) &&
    node.additionalProperties === undefined &&
    node.patternProperties === undefined &&
    node.unevaluatedProperties === undefined
  )
    result.additionalProperties = false;
  return result;
}

function visit(node: SchemaNode, callback: (node: SchemaNode) => void): void {
  if (!isNode(node)) return;
  callback(node);
  for (const key of SCHEMA_MAPS) if (isNode(node[key])) for (const v of Object.values(node[key] as SchemaNode)) visit(v as SchemaNode, callback);
  for (const key of [...SCHEMA_LISTS, ...SCHEMA_VALUES]) {
    const value = node[key];
    if (Array.isArray(value)) for (const member of value) visit(member as SchemaNode, callback);
    else if (isNode(value)) visit(value, callback);
  }
}

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isObjectNode(node: SchemaNode): boolean {
  return node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));
}
