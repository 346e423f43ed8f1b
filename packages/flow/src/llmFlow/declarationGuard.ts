import type { FunctionDeclaration } from '../content/content.js';
import { errorMessage } from '../errors.js';
import type { LlmRequest } from '../model/llmRequest.js';
import { checkSchemaSyntax } from '../schema/checkSchemaSyntax.js';
import { SUBSCHEMA_KEYWORDS } from '../schema/subschemaKeywords.js';
import { isRunnableTool, isStreamingTool, type Tool } from '../tools/tool.js';
import { quoted } from './quoted.js';
import type { StepProblem } from './stepProblem.js';

/**
 * How deep a declaration's schema may nest, in JSON levels (`properties.a` is two). Adapters and
 * SDKs copy schemas recursively, and Gemini's protobuf stops at 100, so a deeper one would fail
 * every request of the agent, not just this tool.
 */
export const MAX_SCHEMA_DEPTH = 100;

/** How many JSON values one declaration may hold, counted as sent (a shared subschema counts each time). */
export const MAX_SCHEMA_VALUES = 100_000;

const SCHEMA_FIELDS = ['parameters', 'parametersJsonSchema', 'response', 'responseJsonSchema'] as const;

// Declarations are usually one object per tool, returned on every step: check each once.
const verdicts = new WeakMap<object, string | null>();

/**
 * Why the tool cannot be offered to the model this step (its `declaration()` throws, or its
 * declaration cannot be sent), or undefined when it can. Tools that declare nothing pass.
 */
export function toolRefusal(tool: Tool): StepProblem | undefined {
  if (!isRunnableTool(tool) && !isStreamingTool(tool)) return undefined;
  let declaration: FunctionDeclaration | undefined;
  try {
    declaration = tool.declaration();
  } catch (error) {
    return refusal(tool.name, `its declaration() failed: ${errorMessage(error)}`);
  }
  if (declaration === undefined) return undefined;
  const problem = declarationProblem(declaration);
  return problem ? refusal(tool.name, problem) : undefined;
}

/**
 * Removes from the request every declaration that cannot be sent, and the tool registered under
 * its name, adding a problem for each: the last pass before callbacks and the adapter see the
 * request, for declarations a request processor added itself. `vetted` names a run of one list,
 * `list[from..to)`, that the flow checked this step and nothing has touched since: it is skipped.
 */
export function sweepDeclarations(
  request: LlmRequest,
  problems: StepProblem[],
  vetted?: { readonly list: readonly FunctionDeclaration[] | undefined; readonly from: number; readonly to: number },
): void {
  for (const entry of request.config.tools ?? []) {
    const declarations = entry.functionDeclarations;
    if (!Array.isArray(declarations)) continue;
    const skip = declarations === vetted?.list ? vetted : undefined;
    // A new list only when something is left out: the usual step keeps the one it built.
    let kept: FunctionDeclaration[] | undefined;
    for (let i = 0; i < declarations.length; i++) {
      const declaration = declarations[i]!;
      if (skip && i >= skip.from && i < skip.to) {
        if (kept) kept.push(declaration);
        else i = skip.to - 1;
        continue;
      }
      const problem = declarationProblem(declaration);
      if (!problem) {
        kept?.push(declaration);
        continue;
      }
      kept ??= declarations.slice(0, i);
      const name = typeof declaration?.name === 'string' ? declaration.name : '';
      if (name && Object.hasOwn(request.tools, name)) delete (request.tools as Record<string, Tool>)[name];
      problems.push(refusal(name || '(unnamed)', problem));
    }
    if (kept) entry.functionDeclarations = kept;
  }
}

function refusal(name: string, why: string): StepProblem {
  return { code: 'TOOL_REFUSED', message: `Tool "${quoted(name)}" is left out: ${why}.` };
}

/**
 * Why the declaration cannot be sent to a model, or undefined when it can: it must be an object
 * with a name, and each schema must be JSON (no cycles, no functions or bigints), at most
 * `MAX_SCHEMA_DEPTH` deep and `MAX_SCHEMA_VALUES` large, and well formed (subschemas objects or
 * booleans, `required` a list of names, `type` a name or a list of names, valid patterns).
 * Iterative, so a schema nested a million levels deep is refused without exhausting the stack.
 */
export function declarationProblem(declaration: FunctionDeclaration): string | undefined {
  if (typeof declaration !== 'object' || declaration === null) return 'its declaration is not an object';
  const known = verdicts.get(declaration);
  if (known !== undefined) return known ?? undefined;
  const problem = check(declaration);
  verdicts.set(declaration, problem ?? null);
  return problem;
}

function check(declaration: FunctionDeclaration): string | undefined {
  if (typeof declaration.name !== 'string' || declaration.name === '') return 'its declaration has no name';
  if (declaration.description !== undefined && typeof declaration.description !== 'string') return 'its description is not a string';
  for (const field of SCHEMA_FIELDS) {
    const schema = declaration[field];
    if (schema === undefined) continue;
    const problem = jsonProblem(schema) ?? shapeProblem(schema);
    if (problem) return `its ${field} ${problem}`;
  }
  return undefined;
}

/** Whether the value can be sent as JSON: acyclic, bounded, only JSON types. */
function jsonProblem(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'is not a schema object';
  // Depth-first with an exit marker, so `open` holds exactly the path from the root: meeting one
  // of those again is a cycle; meeting a shared subschema elsewhere is not.
  const open = new Set<object>();
  const stack: { value: unknown; depth: number; at: string; exit?: boolean }[] = [{ value: schema, depth: 1, at: '(root)' }];
  let count = 0;
  while (stack.length > 0) {
    const item = stack.pop()!;
    const { value, depth, at } = item;
    if (item.exit) {
      open.delete(value as object);
      continue;
    }
    if (++count > MAX_SCHEMA_VALUES) return `holds more than ${MAX_SCHEMA_VALUES} values; send a smaller schema`;
    if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol')
      return `is not JSON: ${at} is a ${typeof value}`;
    if (typeof value === 'number' && !Number.isFinite(value)) return `is not JSON: ${at} is ${value}`;
    if (typeof value !== 'object' || value === null) continue;
    if (open.has(value)) return `refers to itself (a cycle at ${at}), which JSON cannot carry; use $defs and $ref for recursive types`;
    if (depth > MAX_SCHEMA_DEPTH) return `nests deeper than ${MAX_SCHEMA_DEPTH} levels; flatten it, or use $defs and $ref`;
    open.add(value);
    stack.push({ value, depth, at, exit: true });
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((child, i) => [`[${i}]`, child]) : Object.entries(value).map(([key, child]) => [`.${key}`, child]);
    for (const [key, child] of entries) if (child !== undefined) stack.push({ value: child, depth: depth + 1, at: pathAt(at, key) });
  }
  return undefined;
}

/** Paths in messages stay short: the first 200 characters of a deep one. */
function pathAt(at: string, key: string): string {
  return at.length > 200 ? at : at + key;
}

/** Whether the schema is well formed where adapters rely on it (it is already known to be acyclic JSON). */
function shapeProblem(schema: unknown): string | undefined {
  try {
    checkSchemaSyntax(schema);
  } catch (error) {
    return `is invalid: ${errorMessage(error)}`;
  }
  const stack: [unknown, string][] = [[schema, '(root)']];
  while (stack.length > 0) {
    const [node, at] = stack.pop()!;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
    const fields = node as Record<string, unknown>;
    const { required, type } = fields;
    if (required !== undefined && !(Array.isArray(required) && required.every((name) => typeof name === 'string')))
      return `is invalid: ${at}.required must be a list of property names, got ${describe(required)}`;
    if (type !== undefined && typeof type !== 'string' && !(Array.isArray(type) && type.every((name) => typeof name === 'string')))
      return `is invalid: ${at}.type must be a type name or a list of them, got ${describe(type)}`;
    for (const key of SUBSCHEMA_KEYWORDS.maps) {
      const map = fields[key];
      if (map === undefined) continue;
      if (typeof map !== 'object' || map === null || Array.isArray(map)) return `is invalid: ${at}.${key} must be an object, got ${describe(map)}`;
      for (const [name, child] of Object.entries(map)) stack.push([child, `${at}.${key}[${JSON.stringify(quoted(name))}]`]);
    }
    for (const key of SUBSCHEMA_KEYWORDS.lists) {
      const list = fields[key];
      if (Array.isArray(list)) list.forEach((child, i) => stack.push([child, `${at}.${key}[${i}]`]));
      else if (list !== undefined && key !== 'items') return `is invalid: ${at}.${key} must be a list of schemas, got ${describe(list)}`;
    }
    for (const key of SUBSCHEMA_KEYWORDS.values) {
      const child = fields[key];
      if (child !== undefined && !Array.isArray(child)) stack.push([child, `${at}.${key}`]);
    }
  }
  return undefined;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'string' ? `the string ${JSON.stringify(quoted(value))}` : typeof value;
}
