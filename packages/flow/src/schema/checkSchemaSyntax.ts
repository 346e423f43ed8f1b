import { SUBSCHEMA_KEYWORDS } from './subschemaKeywords.js';

type SchemaNode = Record<string, unknown>;

/**
 * Throws what compiling the schema would throw, without loading the compiler: a `SyntaxError`
 * for a `pattern` (or `patternProperties` key) that is not a valid regular expression in Unicode
 * mode, a `TypeError` naming the place where a schema is neither an object nor a boolean. Owners
 * call it at construction, so a broken schema fails there and not at the first call; compiling
 * itself waits for first use (`LazySchema`). Iterative and cycle-safe, so a hostile schema (from
 * an MCP server, say) cannot exhaust the stack.
 */
export function checkSchemaSyntax(schema: unknown): void {
  const stack: [unknown, string][] = [[schema, '(root)']];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [node, at] = stack.pop()!;
    if (typeof node === 'boolean') continue;
    if (typeof node !== 'object' || node === null || Array.isArray(node))
      throw new TypeError(`the schema at ${at} must be an object or a boolean, got ${describe(node)}`);
    if (seen.has(node)) continue;
    seen.add(node);
    const schemaNode = node as SchemaNode;
    if (typeof schemaNode.pattern === 'string') new RegExp(schemaNode.pattern, 'u');
    for (const key of SUBSCHEMA_KEYWORDS.maps) {
      const map = schemaNode[key];
      if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
      for (const [name, child] of Object.entries(map)) {
        if (key === 'patternProperties') new RegExp(name, 'u');
        stack.push([child, `${at}.${key}[${JSON.stringify(name)}]`]);
      }
    }
    for (const key of SUBSCHEMA_KEYWORDS.lists) {
      const list = schemaNode[key];
      if (Array.isArray(list)) list.forEach((child, i) => stack.push([child, `${at}.${key}[${i}]`]));
    }
    for (const key of SUBSCHEMA_KEYWORDS.values) {
      const child = schemaNode[key];
      if (child !== undefined && !Array.isArray(child)) stack.push([child, `${at}.${key}`]);
    }
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
