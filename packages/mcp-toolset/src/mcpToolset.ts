import { AdkitError, ConfigError, errorMessage, type LlmRequest, type ReadonlyContext, type RequestContext, type Tool } from '@adkit/flow';
import { BaseToolset, FUNCTION_NAME_PATTERN, toFunctionName, type ToolPredicate } from '@adkit/tool';
import type { Implementation, Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import { defaultInlineMedia, MediaShelf, type InlineMediaRule } from './mediaShelf.js';
import { assertServerConfig, type McpServerConfig } from './mcpServerConfig.js';
import { McpTool, type McpRequireConfirmation, type McpToolShared } from './mcpTool.js';
import { ServerConnections, type HeaderSet } from './serverConnections.js';

/** Options of `mcpToolset`. */
export interface McpToolsetOptions {
  /** The toolset's name, used in error messages; `"mcp_tool_set"` by default (MCP-2). */
  name?: string;
  /** Which tools the model sees: a predicate, or the names allowed (PK-5). */
  toolFilter?: ToolPredicate | readonly string[];
  /** Renames every tool `<prefix>_<name>`, to keep two servers' tools apart. */
  prefix?: string;
  /** Ask the user before each call (HC-2): a flag, or `(toolName, args, ctx) => boolean`. */
  requireConfirmation?: McpRequireConfirmation;
  /**
   * Limit in ms for each call (the run's flow enforces it, and the server gets an MCP
   * cancellation) and for each listing request; 60,000 by default.
   */
  timeoutMs?: number;
  /** Limit in ms for connecting: starting the server or the HTTP handshake, and `initialize`; 30,000 by default. */
  connectTimeoutMs?: number;
  /**
   * Which images and audio of results also reach the model as inline data in the next step
   * (see `InlineMediaRule`): images for every model and audio for Gemini models by default.
   */
  inlineMedia?: InlineMediaRule;
  /** How the client introduces itself in `initialize`; `{name: "adkit-mcp-client", version: "1.0.0"}` by default. */
  clientInfo?: Implementation;
  /** With per-run headers: how many sessions (header sets) stay open; 16 by default, least recently used closed first. */
  maxSessions?: number;
}

const DEFAULT_NAME = 'mcp_tool_set';
const DEFAULT_CLIENT_INFO: Implementation = { name: 'adkit-mcp-client', version: '1.0.0' };

const connectionsOf = new WeakMap<McpToolset, ServerConnections>();

/**
 * An MCP server's tools as an adkit toolset. One persistent connection per toolset (per header
 * set with per-run headers), opened on first use and reused by every listing and call;
 * reconnected once when it breaks (MCP-4); `close()` — which `runner.close()` calls — ends the
 * session and stops a stdio server. Tool names that are not valid function names are renamed
 * (reported on `ctx.logger.warn`).
 */
export class McpToolset extends BaseToolset {
  private readonly shared: McpToolShared;
  private readonly converted = new WeakMap<readonly SdkTool[], Tool[]>();

  constructor(server: McpServerConfig, options: McpToolsetOptions = {}) {
    if (typeof options !== 'object' || options === null)
      throw new ConfigError(`mcpToolset: options must be an object such as {prefix: "github"}, got ${options === null ? 'null' : typeof options}.`);
    const name = options.name ?? DEFAULT_NAME;
    super({ name, ...(options.toolFilter !== undefined ? { toolFilter: options.toolFilter } : {}), ...(options.prefix !== undefined ? { prefix: options.prefix } : {}) });
    const owner = `mcpToolset "${name}"`;
    assertServerConfig(owner, server);
    const timeoutMs = positive(owner, 'timeoutMs', options.timeoutMs, 60_000);
    const connectTimeoutMs = positive(owner, 'connectTimeoutMs', options.connectTimeoutMs, 30_000);
    const maxSessions = positive(owner, 'maxSessions', options.maxSessions, 16);
    const requireConfirmation = options.requireConfirmation ?? false;
    if (typeof requireConfirmation !== 'boolean' && typeof requireConfirmation !== 'function')
      throw new ConfigError(`${owner}: requireConfirmation must be true, false or a function (toolName, args, ctx) => boolean.`);
    const inlineMedia = options.inlineMedia ?? defaultInlineMedia;
    if (typeof inlineMedia !== 'boolean' && typeof inlineMedia !== 'function')
      throw new ConfigError(`${owner}: inlineMedia must be true, false or a function ({kind, mimeType, model}) => boolean.`);
    const clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
    if (typeof clientInfo?.name !== 'string' || typeof clientInfo.version !== 'string')
      throw new ConfigError(`${owner}: clientInfo must be {name, version} strings.`);
    const connections = new ServerConnections(owner, server, { clientInfo, connectTimeoutMs, requestTimeoutMs: timeoutMs }, maxSessions);
    connectionsOf.set(this, connections);
    this.shared = { connections, shelf: new MediaShelf(inlineMedia), requireConfirmation, timeoutMs };
  }

  /** Lists the server's tools for this run's header set (cached until the server says they changed). */
  protected async listTools(ctx: ReadonlyContext): Promise<Tool[]> {
    const set = await this.shared.connections.headerSet(ctx);
    let definitions: readonly SdkTool[];
    try {
      definitions = await this.shared.connections.connection(set).use((session) => session.listTools(), () => true);
    } catch (error) {
      throw new AdkitError('MCP_LIST_FAILED', `failed to list MCP tools: ${errorMessage(error)}`, { cause: error });
    }
    let tools = this.converted.get(definitions);
    if (!tools) {
      tools = this.convert(definitions, set, ctx);
      this.converted.set(definitions, tools);
    }
    return tools;
  }

  /** Hands the media of the calls just answered to the model as inline data (see `InlineMediaRule`). */
  async processRequest(ctx: RequestContext, request: LlmRequest): Promise<void> {
    this.shared.shelf.attach(ctx.invocationId, request);
  }

  /** Ends every session and stops stdio servers; a later use connects again. */
  override async close(): Promise<void> {
    this.shared.shelf.clear();
    await this.shared.connections.close();
  }

  /** MCP-6: one tool per definition, in the server's order; invalid names renamed and reported. */
  private convert(definitions: readonly SdkTool[], set: HeaderSet, ctx: ReadonlyContext): Tool[] {
    const taken = new Set<string>();
    for (const definition of definitions) if (FUNCTION_NAME_PATTERN.test(definition.name)) taken.add(definition.name);
    const kept = new Set<string>();
    return definitions.map((definition) => {
      let name = definition.name;
      if (!taken.has(name) || kept.has(name)) {
        const renamed = toFunctionName(name, taken);
        if (renamed.reason) ctx.logger.warn(`mcpToolset "${this.name}": ${renamed.reason}`);
        name = renamed.name;
        taken.add(name);
      }
      kept.add(name);
      return new McpTool(definition, name, set, this.shared);
    });
  }
}

/**
 * An MCP server's tools as a toolset, on the official MCP SDK client.
 *
 * ```ts
 * const files = mcpToolset({ stdio: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', dir] } });
 * const api = mcpToolset(
 *   { url: 'https://mcp.example.com/mcp', headers: (ctx) => ({ authorization: `Bearer ${(ctx.context as { token: string }).token}` }) },
 *   { prefix: 'api', requireConfirmation: (name) => name.startsWith('delete') },
 * );
 * ```
 */
export function mcpToolset(server: McpServerConfig, options?: McpToolsetOptions): McpToolset {
  return new McpToolset(server, options);
}

/** The connections of a toolset, for `mcpResources` to share. */
export function toolsetConnections(toolset: McpToolset): ServerConnections | undefined {
  return connectionsOf.get(toolset);
}

function positive(owner: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new ConfigError(`${owner}: ${name} must be a positive number, got ${String(value)}; leave it out for ${fallback}.`);
  return value;
}
