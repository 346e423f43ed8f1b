/**
 * Where JSON Schema keeps subschemas, for code that walks a schema: `maps` name subschemas by key,
 * `lists` hold arrays of them, `values` hold one (`items` is a list in the tuple form of older
 * drafts and TypeBox's `Tuple`, a value otherwise, so it is in both).
 */
export const SUBSCHEMA_KEYWORDS = {
  maps: ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'],
  lists: ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'],
  values: [
    'items',
    'additionalItems',
    'additionalProperties',
    'not',
    'if',
    'then',
    'else',
    'contains',
    'propertyNames',
    'unevaluatedItems',
    'unevaluatedProperties',
  ],
} as const;
