import { quoted } from '../llmFlow/quoted.js';

/** One validation error as TypeBox reports it (`Validator.Errors`). */
export interface SchemaError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: object;
  message: string;
}

/** How many problems a message lists at most. */
export const MAX_SCHEMA_PROBLEMS = 8;

/**
 * Turns validation errors into at most `max` lines `path: message` a model can act on: a missing
 * field is `city: is required`, an unknown one `extra: is not allowed`, a union of literals
 * `units: must be "c" or "f"` (not one line per branch), a literal `lit: must be 12` (not also
 * `must be number`), paths in dot/bracket form
 * (`items[0].price`), the value itself `(root)`. Duplicates are dropped.
 */
export function formatSchemaErrors(errors: Iterable<SchemaError>, max = MAX_SCHEMA_PROBLEMS): string[] {
  const all = [...errors];
  const unions = all.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const lines = new Set<string>();
  for (const error of all) {
    if (lines.size >= max) break;
    if (unions.some((union) => union !== error && error.schemaPath.startsWith(`${union.schemaPath}/${union.keyword}/`)))
      continue;
    if (error.keyword === 'boolean' && error.schemaPath.endsWith('/additionalProperties')) continue;
    // A literal's own message (`must be 12`) says more than its type's (`must be number`).
    if (error.keyword === 'type' && all.some((e) => isLiteral(e) && e.schemaPath === error.schemaPath && e.instancePath === error.instancePath))
      continue;
    for (const line of describe(error, all)) if (lines.size < max) lines.add(line);
  }
  return [...lines];
}

/** A JSON pointer (`/items/0/price`) in the form models read best (`items[0].price`). */
export function formatSchemaPath(instancePath: string): string {
  if (!instancePath) return '(root)';
  let path = '';
  for (const raw of instancePath.slice(1).split('/')) path = joinPath(path, raw.replace(/~1/g, '/').replace(/~0/g, '~'));
  return path;
}

function joinPath(path: string, key: string): string {
  if (/^\d+$/.test(key)) return `${path}[${key}]`;
  if (key.length <= 100 && /^[A-Za-z_$][\w$-]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(quoted(key))}]`;
}

function childPath(instancePath: string, key: string): string {
  const parent = instancePath ? formatSchemaPath(instancePath) : '';
  return joinPath(parent, key);
}

function describe(error: SchemaError, all: readonly SchemaError[]): string[] {
  const params = error.params as Record<string, unknown>;
  const path = formatSchemaPath(error.instancePath);
  switch (error.keyword) {
    case 'required':
      return strings(params.requiredProperties).map((key) => `${childPath(error.instancePath, key)}: is required`);
    case 'additionalProperties':
      return strings(params.additionalProperties).map((key) => `${childPath(error.instancePath, key)}: is not allowed`);
    case 'enum':
      return [`${path}: must be ${alternatives((params.allowedValues as unknown[] | undefined ?? []).map(literal))}`];
    case 'const':
      return [`${path}: must be ${literal(params.allowedValue)}`];
    case 'anyOf':
    case 'oneOf':
      return [`${path}: ${unionMessage(error, all)}`];
    default:
      return [`${path}: ${error.message}`];
  }
}

/** A union of literals or plain types reads `must be "c" or "f"`; anything richer stays generic. */
function unionMessage(union: SchemaError, all: readonly SchemaError[]): string {
  const prefix = `${union.schemaPath}/${union.keyword}/`;
  const branches = all.filter((e) => e.schemaPath.startsWith(prefix));
  const options: string[] = [];
  for (const branch of branches) {
    const params = branch.params as Record<string, unknown>;
    if (branch.instancePath !== union.instancePath) return 'does not match any of the allowed forms';
    if (branch.keyword === 'const') options.push(literal(params.allowedValue));
    else if (branch.keyword === 'type') options.push(...[params.type].flat().map(String));
    else if (branch.keyword === 'enum') options.push(...(params.allowedValues as unknown[] | undefined ?? []).map(literal));
    else return 'does not match any of the allowed forms';
  }
  return options.length > 0 ? `must be ${alternatives([...new Set(options)])}` : 'does not match any of the allowed forms';
}

function isLiteral(error: SchemaError): boolean {
  return error.keyword === 'const' || error.keyword === 'enum';
}

function alternatives(options: readonly string[]): string {
  if (options.length <= 1) return options[0] ?? 'one of the allowed values';
  return `${options.slice(0, -1).join(', ')} or ${options[options.length - 1]}`;
}

function literal(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}
