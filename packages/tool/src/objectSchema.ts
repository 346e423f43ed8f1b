import type { TSchema } from 'typebox';

type SchemaNode = Record<string, unknown>;

/** Whether the schema describes an object (its `type` is or includes `"object"`), as `Type.Object` does. */
export function isObjectSchema(schema: unknown): schema is TSchema {
  if (typeof schema !== 'object' || schema === null) return false;
  const type = (schema as SchemaNode).type;
  return type === 'object' || (Array.isArray(type) && type.includes('object'));
}

/**
 * The fields of an object schema in one line, for messages to the model:
 * `city (string, required), days (integer, optional, default 3), units ("c" | "f", optional)`.
 * Empty when the schema has no properties.
 */
export function describeFields(schema: TSchema): string {
  const node = schema as SchemaNode;
  const properties = (node.properties ?? {}) as Record<string, SchemaNode>;
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  return Object.entries(properties)
    .map(([name, property]) => {
      const notes = [describeType(property), required.has(name) ? 'required' : 'optional'];
      if (property.default !== undefined) notes.push(`default ${JSON.stringify(property.default)}`);
      return `${name} (${notes.join(', ')})`;
    })
    .join(', ');
}

function describeType(schema: SchemaNode): string {
  if (typeof schema !== 'object' || schema === null) return 'any';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = (schema.anyOf ?? schema.oneOf) as SchemaNode[] | undefined;
  if (Array.isArray(union)) return union.map(describeType).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (schema.type === 'array')
    return schema.items && typeof schema.items === 'object' ? `array of ${describeType(schema.items as SchemaNode)}` : 'array';
  return typeof schema.type === 'string' ? schema.type : 'any';
}
