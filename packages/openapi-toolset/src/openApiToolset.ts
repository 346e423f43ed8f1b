import { AdkitError, ConfigError, errorMessage, type ReadonlyContext, type Tool, type Toolset } from '@adkit/flow';
import { toFunctionName, type ToolPredicate } from '@adkit/tool';
import { addressPolicy, type AddressPolicy } from './addressPolicy.js';
import { appCredentials, assertAuthOptions, securitySchemes, type AuthOptions } from './auth.js';
import { OpenApiSpecError } from './errors.js';
import { loadSpec, type OpenApiDocument, type SpecSource } from './loadSpec.js';
import { OpenApiTool, type HeaderSource, type OpenApiRequireConfirmation, type OpenApiToolShared } from './openApiTool.js';
import { operationSchema } from './operationSchema.js';
import { HTTP_METHODS, listOperations, rawOperationName, type HttpMethod, type OperationEntry, type OperationInfo } from './operations.js';

/**
 * Which operations become tools: operation ids (or the generated names of operations without
 * one), a selection by id, tag and method (an operation must pass every part given), or a
 * predicate.
 */
export type OperationFilter =
  | readonly string[]
  | { ids?: readonly string[]; tags?: readonly string[]; methods?: readonly string[] }
  | ((operation: OperationInfo) => boolean);

/** Options of `openApiToolset`. */
export interface OpenApiToolsetOptions {
  /** The OpenAPI 3.0/3.1 description: the document object, a file path, or an http(s) URL (JSON or YAML). */
  spec: SpecSource;
  /** The toolset's name, for errors and logs; `"openapi"` by default. */
  name?: string;
  /** Where requests go; by default the spec's first `servers` entry. The model can never change it. */
  baseUrl?: string | URL;
  /** Credentials by security scheme name; see `StaticCredential`. */
  auth?: AuthOptions;
  /** Which operations become tools; all by default. */
  operations?: OperationFilter;
  /**
   * Which of the listed tools the model sees, decided per listing (PK-5), like every toolset's
   * `toolFilter`: tool names (with or without the prefix), or a predicate `(ctx, tool)`, e.g. per
   * user. `operations` decides what is built at all; this one is for what depends on the run.
   */
  toolFilter?: ToolPredicate | readonly string[];
  /** Tool names become `<prefix>_<name>`. */
  prefix?: string;
  /**
   * Ask the user before a call (HC-2): a flag for all operations, or a function per call
   * `(toolName, args, ctx, operation)`. By default POST, PUT, PATCH and DELETE ask and the other
   * methods do not.
   */
  requireConfirmation?: OpenApiRequireConfirmation;
  /** Headers sent with every request (never shown to the model). */
  headers?: HeaderSource;
  /**
   * Addresses beyond the public internet that requests may reach: `true`, or addresses and CIDR
   * ranges (`['127.0.0.1']`). Loopback, private and link-local addresses are refused by default.
   */
  allowPrivateAddresses?: boolean | readonly string[];
  /** Time limit of one call, in ms (30000). */
  timeoutMs?: number;
  /** The most of a response body the model gets, in bytes (100000); longer bodies are cut. */
  maxResponseBytes?: number;
  /** The largest description read from a file or URL, in bytes (64 MiB). */
  maxSpecBytes?: number;
  /** Redirects followed per call (5); each hop's host is checked too. */
  maxRedirects?: number;
}

const LIMITS = { maxDepth: 24, maxNodes: 5_000 };
const MAX_DESCRIPTION = 1_000;

/** An OpenAPI description as a toolset: one `OpenApiTool` per operation. */
export class OpenApiToolset implements Toolset {
  readonly name: string;
  private readonly options: OpenApiToolsetOptions;
  private readonly filter: (operation: OperationInfo) => boolean;
  private readonly baseUrl?: URL;
  private readonly policy: AddressPolicy;
  private readonly toolFilter?: ToolPredicate;
  private loading?: Promise<OpenApiTool[]>;

  constructor(options: OpenApiToolsetOptions) {
    if (typeof options !== 'object' || options === null) throw new ConfigError('openApiToolset: expected an options object such as { spec, baseUrl }.');
    const spec = options.spec;
    if (!(typeof spec === 'string' && spec.length > 0) && !(spec instanceof URL) && !(typeof spec === 'object' && spec !== null && !Array.isArray(spec)))
      throw new ConfigError('openApiToolset: spec must be the OpenAPI document, a file path or an http(s) URL.');
    this.name = options.name ?? 'openapi';
    if (typeof this.name !== 'string' || this.name.length === 0) throw new ConfigError('openApiToolset: name must be a non-empty string.');
    if (options.baseUrl !== undefined) this.baseUrl = parseBaseUrl(options.baseUrl, 'baseUrl');
    if (options.prefix !== undefined && (typeof options.prefix !== 'string' || !/^[a-zA-Z_][a-zA-Z0-9_]{0,29}$/.test(options.prefix)))
      throw new ConfigError(`openApiToolset: prefix must be letters, digits and "_" (at most 30, not starting with a digit), got ${JSON.stringify(options.prefix)}.`);
    assertAuthOptions(options.auth);
    const confirm = options.requireConfirmation;
    if (confirm !== undefined && typeof confirm !== 'boolean' && typeof confirm !== 'function')
      throw new ConfigError('openApiToolset: requireConfirmation must be true, false or a function (toolName, args, ctx, operation) => boolean.');
    if (options.headers !== undefined && typeof options.headers !== 'function') {
      if (typeof options.headers !== 'object' || options.headers === null)
        throw new ConfigError('openApiToolset: headers must be an object of header names to values, or a function (ctx) => such an object.');
      for (const [key, value] of Object.entries(options.headers))
        if (typeof value !== 'string' || /[\r\n\0]/.test(value))
          throw new ConfigError(`openApiToolset: headers["${key}"] must be a string without line breaks.`);
    }
    for (const key of ['timeoutMs', 'maxResponseBytes', 'maxSpecBytes'] as const) {
      const value = options[key];
      if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0))
        throw new ConfigError(`openApiToolset: ${key} must be a positive number, got ${String(value)}.`);
    }
    if (options.maxRedirects !== undefined && !(Number.isInteger(options.maxRedirects) && options.maxRedirects >= 0))
      throw new ConfigError(`openApiToolset: maxRedirects must be a whole number of at least 0, got ${String(options.maxRedirects)}.`);
    this.policy = addressPolicy(options.allowPrivateAddresses);
    this.filter = operationFilter(options.operations);
    const toolFilter = options.toolFilter;
    if (Array.isArray(toolFilter)) {
      if (toolFilter.some((name) => typeof name !== 'string')) throw new ConfigError('openApiToolset: toolFilter must list tool names as strings, or be a predicate (ctx, tool) => boolean.');
      const names = new Set(toolFilter as readonly string[]);
      const prefix = options.prefix ? `${options.prefix}_` : '';
      this.toolFilter = (_ctx, tool) => names.has(tool.name) || (prefix !== '' && tool.name.startsWith(prefix) && names.has(tool.name.slice(prefix.length)));
    } else if (typeof toolFilter === 'function') this.toolFilter = toolFilter as ToolPredicate;
    else if (toolFilter !== undefined)
      throw new ConfigError('openApiToolset: toolFilter must list tool names as strings, or be a predicate (ctx, tool) => boolean.');
    this.options = options;
  }

  /**
   * The tools, one per selected operation. The description is read and dereferenced by the first
   * call and the tools kept; a failure is thrown (the flow reports the toolset, the agent's other
   * tools still run) and the next call tries again.
   */
  async tools(ctx: ReadonlyContext): Promise<Tool[]> {
    this.loading ??= this.build(ctx).catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    const tools = await this.loading;
    const filter = this.toolFilter;
    if (!filter) return [...tools];
    const kept: Tool[] = [];
    for (const tool of tools) {
      let keep: boolean;
      try {
        keep = await filter(ctx, tool);
      } catch (error) {
        throw new AdkitError('TOOLSET_ERROR', `toolset "${this.name}": the tool filter failed for tool "${tool.name}": ${errorMessage(error)}`, { cause: error });
      }
      if (keep) kept.push(tool);
    }
    return kept;
  }

  /** Closes the connections to the API (the runner calls it when it closes); a later call opens new ones. */
  async close(): Promise<void> {
    await this.policy.close();
  }

  private async build(ctx: ReadonlyContext): Promise<OpenApiTool[]> {
    const options = this.options;
    const document = await loadSpec(options.spec, {
      maxSpecBytes: options.maxSpecBytes ?? 64 * 1024 * 1024,
      timeoutMs: options.timeoutMs ?? 30_000,
    });
    const openapi30 = String(document.openapi).startsWith('3.0.');
    const schemes = securitySchemes(document);
    const operations = listOperations(document).filter(this.filter);
    const credentials = appCredentials(schemes, options.auth ?? {}, operations);
    const shared: OpenApiToolShared = {
      credentials,
      policy: this.policy,
      requireConfirmation: options.requireConfirmation,
      headers: options.headers,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxResponseBytes: options.maxResponseBytes ?? 100_000,
      maxRedirects: options.maxRedirects ?? 5,
    };
    const appHeaders = typeof options.headers === 'object' ? Object.keys(options.headers).map((h) => h.toLowerCase()) : [];
    const hidden = { ...credentials.hidden, headers: new Set([...credentials.hidden.headers, ...appHeaders]) };
    const specUrl = typeof options.spec === 'string' && /^https?:\/\//i.test(options.spec) ? options.spec : options.spec instanceof URL ? options.spec.href : undefined;
    const taken = new Set<string>();
    const tools: OpenApiTool[] = [];
    const renamed: string[] = [];
    for (const operation of operations) {
      const raw = rawOperationName(operation);
      const { name, reason } = toFunctionName(options.prefix ? `${options.prefix}_${raw}` : raw, taken);
      taken.add(name);
      if (reason) renamed.push(reason);
      const { schema, plan } = operationSchema(operation, hidden, LIMITS, openapi30);
      tools.push(
        new OpenApiTool(
          { name, description: describe(operation), operation, baseUrl: this.baseUrl ?? serverUrl(document, operation, specUrl), parameters: schema, plan },
          shared,
        ),
      );
    }
    if (renamed.length > 0)
      ctx.logger.warn(`openApiToolset "${this.name}": ${renamed.length} operation names were made valid function names, e.g. ${renamed[0]}`);
    return tools;
  }
}

/**
 * Any REST API with an OpenAPI 3.0 or 3.1 description as a toolset: one tool per operation,
 * named from its `operationId` (else method and path) as a valid, unique function name, with its
 * path, query, header and cookie parameters and its JSON body in one object schema. Calls go to
 * the app's `baseUrl` (or the spec's server) with the app's credentials; mutating methods ask the
 * user first; loopback, private and link-local addresses are refused unless allowed.
 *
 * ```ts
 * const petstore = openApiToolset({
 *   spec: './petstore.yaml',
 *   baseUrl: 'https://petstore.example.com/v1',
 *   auth: { api_key: { apiKey: process.env.PETSTORE_KEY! } },
 *   operations: { tags: ['pets'] },
 * });
 * ```
 */
export function openApiToolset(options: OpenApiToolsetOptions): OpenApiToolset {
  return new OpenApiToolset(options);
}

function parseBaseUrl(value: string | URL, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`openApiToolset: ${what} must be an absolute http(s) URL such as "https://api.example.com/v1", got ${JSON.stringify(String(value))}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`openApiToolset: ${what} must use http or https, got ${url.protocol}`);
  url.search = '';
  url.hash = '';
  return url;
}

/** The first server of the operation (or the document), its variables at their defaults. */
function serverUrl(document: OpenApiDocument, operation: OperationEntry, specUrl: string | undefined): URL {
  const servers = operation.servers ?? (Array.isArray(document.servers) ? document.servers : []);
  const server = servers[0] as { url?: unknown; variables?: Record<string, { default?: unknown }> } | undefined;
  if (!server || typeof server.url !== 'string')
    throw new OpenApiSpecError(`openApiToolset: the spec has no servers entry for ${operation.method.toUpperCase()} ${operation.path}; pass baseUrl.`);
  const text = server.url.replace(/\{([^}]+)\}/g, (match, name: string) => {
    const value = server.variables?.[name]?.default;
    return typeof value === 'string' ? value : match;
  });
  try {
    return parseBaseUrl(specUrl ? new URL(text, specUrl) : text, 'the spec\'s server URL');
  } catch (error) {
    throw new OpenApiSpecError(`openApiToolset: the spec's server "${server.url}" is not an absolute http(s) URL; pass baseUrl.`, { cause: error });
  }
}

function describe(operation: OperationEntry): string {
  const parts = [operation.summary, operation.description].filter((p): p is string => typeof p === 'string' && p.trim().length > 0);
  if (parts.length === 2 && parts[1]!.startsWith(parts[0]!)) parts.shift();
  let text = parts.join('\n\n').trim();
  if (text.length === 0) text = `${operation.method.toUpperCase()} ${operation.path}`;
  if (operation.deprecated) text = `Deprecated. ${text}`;
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

function operationFilter(filter: OperationFilter | undefined): (operation: OperationInfo) => boolean {
  if (filter === undefined) return () => true;
  if (typeof filter === 'function') return filter;
  if (Array.isArray(filter)) {
    if (filter.some((id) => typeof id !== 'string')) throw new ConfigError('openApiToolset: operations must list operation ids as strings.');
    const ids = new Set(filter as readonly string[]);
    return (operation) => ids.has(rawOperationName(operation));
  }
  if (typeof filter !== 'object' || filter === null)
    throw new ConfigError('openApiToolset: operations must be a list of operation ids, {ids, tags, methods} or a function (operation) => boolean.');
  const { ids, tags, methods } = filter as { ids?: readonly string[]; tags?: readonly string[]; methods?: readonly string[] };
  const idSet = ids ? new Set(ids) : undefined;
  const tagSet = tags ? new Set(tags) : undefined;
  const methodSet = methods ? new Set(methods.map((m) => String(m).toLowerCase())) : undefined;
  if (methodSet) for (const m of methodSet) if (!(HTTP_METHODS as readonly string[]).includes(m))
    throw new ConfigError(`openApiToolset: operations.methods has "${m}", which is not an HTTP method (${HTTP_METHODS.join(', ')}).`);
  return (operation) =>
    (!idSet || idSet.has(rawOperationName(operation))) &&
    (!tagSet || operation.tags.some((tag) => tagSet.has(tag))) &&
    (!methodSet || methodSet.has(operation.method as HttpMethod));
}
