import type { OpenApiDocument } from './loadSpec.js';

/** The HTTP methods an OpenAPI path item may hold. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** An HTTP method in lower case. */
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Methods that change the server's state: they ask the user first unless `requireConfirmation` says otherwise. */
export const MUTATING_METHODS: ReadonlySet<HttpMethod> = new Set(['post', 'put', 'patch', 'delete']);

/** One parameter of an operation, after path-level and operation-level parameters are merged. */
export interface ParameterObject {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required: boolean;
  readonly description?: string;
  readonly schema?: unknown;
  readonly style?: string;
  readonly explode?: boolean;
  readonly deprecated?: boolean;
  /** `content` instead of `schema` (a JSON-encoded parameter). */
  readonly content?: Record<string, { schema?: unknown }>;
}

/** What a tool knows of the operation it calls (public on every `OpenApiTool`). */
export interface OperationInfo {
  readonly method: HttpMethod;
  /** The path template as in the spec, e.g. `/pets/{petId}`. */
  readonly path: string;
  readonly operationId?: string;
  readonly tags: readonly string[];
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated: boolean;
}

/** An operation with everything needed to build its tool. */
export interface OperationEntry extends OperationInfo {
  readonly parameters: readonly ParameterObject[];
  readonly requestBody?: { required: boolean; description?: string; content: Record<string, { schema?: unknown }> };
  /** The security requirements in force (the operation's, else the document's); `[]` means none. */
  readonly security: readonly Record<string, readonly string[]>[];
  /** The operation's own `servers` (or its path's), when it has some. */
  readonly servers?: readonly unknown[];
}

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every operation of the document in spec order, with path-level parameters merged in (an
 * operation's own parameter wins for the same name and location) and the document's security
 * inherited where the operation has none.
 */
export function listOperations(document: OpenApiDocument): OperationEntry[] {
  const operations: OperationEntry[] = [];
  const paths = isNode(document.paths) ? document.paths : {};
  const rootSecurity = Array.isArray(document.security) ? securityList(document.security) : [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isNode(item)) continue;
    const shared = parameterList(item.parameters);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isNode(operation)) continue;
      const own = parameterList(operation.parameters);
      const merged = new Map<string, ParameterObject>();
      for (const parameter of [...shared, ...own]) merged.set(`${parameter.in}:${parameter.name}`, parameter);
      const entry: OperationEntry = {
        method,
        path,
        tags: Array.isArray(operation.tags) ? operation.tags.filter((t): t is string => typeof t === 'string') : [],
        deprecated: operation.deprecated === true,
        parameters: [...merged.values()],
        security: Array.isArray(operation.security) ? securityList(operation.security) : rootSecurity,
        ...(typeof operation.operationId === 'string' && operation.operationId.length > 0 ? { operationId: operation.operationId } : {}),
        ...(typeof operation.summary === 'string' ? { summary: operation.summary } : {}),
        ...(typeof operation.description === 'string' ? { description: operation.description } : {}),
        ...requestBodyOf(operation.requestBody),
        ...serversOf(operation.servers ?? item.servers),
      };
      operations.push(entry);
    }
  }
  return operations;
}

function parameterList(value: unknown): ParameterObject[] {
  if (!Array.isArray(value)) return [];
  const list: ParameterObject[] = [];
  for (const raw of value) {
    if (!isNode(raw) || typeof raw.name !== 'string') continue;
    const where = raw.in;
    if (where !== 'path' && where !== 'query' && where !== 'header' && where !== 'cookie') continue;
    list.push({
      name: raw.name,
      in: where,
      required: where === 'path' || raw.required === true,
      ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
      ...(raw.schema !== undefined ? { schema: raw.schema } : {}),
      ...(typeof raw.style === 'string' ? { style: raw.style } : {}),
      ...(typeof raw.explode === 'boolean' ? { explode: raw.explode } : {}),
      ...(raw.deprecated === true ? { deprecated: true } : {}),
      ...(isNode(raw.content) ? { content: raw.content as Record<string, { schema?: unknown }> } : {}),
    });
  }
  return list;
}

function requestBodyOf(value: unknown): Pick<OperationEntry, 'requestBody'> {
  if (!isNode(value) || !isNode(value.content)) return {};
  return {
    requestBody: {
      required: value.required === true,
      content: value.content as Record<string, { schema?: unknown }>,
      ...(typeof value.description === 'string' ? { description: value.description } : {}),
    },
  };
}

function serversOf(value: unknown): Pick<OperationEntry, 'servers'> {
  return Array.isArray(value) && value.length > 0 ? { servers: value } : {};
}

function securityList(value: unknown[]): Record<string, readonly string[]>[] {
  return value.filter(isNode).map((requirement) => {
    const out: Record<string, readonly string[]> = Object.create(null) as Record<string, readonly string[]>;
    for (const [scheme, scopes] of Object.entries(requirement))
      out[scheme] = Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [];
    return out;
  });
}

/** The raw tool name of an operation: its `operationId`, else method and path (`get_pets_petId`). */
export function rawOperationName(operation: OperationInfo): string {
  if (operation.operationId) return operation.operationId;
  const path = operation.path
    .replace(/[{}]/g, '')
    .split('/')
    .filter((part) => part.length > 0)
    .join('_');
  return path.length > 0 ? `${operation.method}_${path}` : operation.method;
}
