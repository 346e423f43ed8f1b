import { AdkitError, ConfigError, errorMessage, type LlmRequest, type ReadonlyContext, type RequestContext, type Tool } from '@adkit/flow';
import { BaseToolset, FUNCTION_NAME_PATTERN, toFunctionName, type ToolPredicate } from '@adkit/tool';
import type { Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import { applyInlineMedia, type InlineMediaRule } from './inlineMedia.js';
import { authorizedListing } from './mcpAuthorizedTools.js';
import { assertServerConfig, type McpServerConfig } from './mcpServerConfig.js';
import type { McpCallMeta } from './callMeta.js';
import type { McpElicitationOptions } from './elicitation.js';
import { elicitingCalls, taskCalls } from './toolsetFeatures.js';
import type { McpTasksOptions } from './taskCalls.js';
import { ToolPins, type McpPinToolsOptions } from './toolPins.js';
import { McpTool, ResumableMcpTool, type McpRequireConfirmation, type McpToolShared } from './mcpTool.js';
import { ServerConnections, type HeaderSet } from './serverConnections.js';
import { assertOptions, toolsetSettings, type McpConnectionOptions, type ToolsetSettings } from './toolsetSettings.js';

/** Options of `mcpToolset`. */
export interface McpToolsetOptions extends McpConnectionOptions {
  /** The toolset's name, used in error messages; `"mcp_tool_set"` by default (MCP-2). */
  name?: string;
  /** Which tools the model sees: a predicate, or the names allowed (PK-5). */
  toolFilter?: ToolPredicate | readonly string[];
  /** Renames every tool `<prefix>_<name>`, to keep two servers' tools apart. */
  prefix?: string;
  /** Ask the user before each call (HC-2): a flag, or `(toolName, args, ctx) => boolean`. */
  requireConfirmation?: McpRequireConfirmation;
  /**
   * Takes the server's requests for input mid-call (`elicitation/create`, form and URL mode):
   * answered by `handler`, or the call pauses until the user answers (see the README). Declares
   * the elicitation capability; without it, servers cannot ask.
   */
  elicitation?: McpElicitationOptions;
  /** Adds entries to each `tools/call`'s `_meta`, after the W3C trace context of the call's span. */
  meta?: McpCallMeta;
  /**
   * Pins each tool's definition the first time it is seen (in app state); a tool the server later
   * changes is refused until `approve` says yes (see `McpPinToolsOptions`).
   */
  pinTools?: boolean | McpPinToolsOptions;
  /** MCP tasks: how long a call follows its task within a turn, and whether optional ones run as tasks. */
  tasks?: McpTasksOptions;
}

const DEFAULT_NAME = 'mcp_tool_set';

const connectionsOf = new WeakMap<McpToolset, { connections: ServerConnections; settings: ToolsetSettings }>();

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
  // The tools this toolset made: `inlineMedia` applies to their results only.
  private readonly ownTools = new WeakSet<Tool>();
  private readonly inlineMedia: InlineMediaRule;
  private readonly pins?: ToolPins;

  constructor(server: McpServerConfig, options: McpToolsetOptions = {}) {
    assertOptions('mcpToolset', options);
    const { name = DEFAULT_NAME, toolFilter, prefix } = options;
    super({ name, ...(toolFilter !== undefined ? { toolFilter } : {}), ...(prefix !== undefined ? { prefix } : {}) });
    const owner = `mcpToolset "${name}"`;
    assertServerConfig(owner, server);
    const settings = toolsetSettings(owner, options);
    const requireConfirmation = options.requireConfirmation ?? false;
    if (typeof requireConfirmation !== 'boolean' && typeof requireConfirmation !== 'function')
      throw new ConfigError(`${owner}: requireConfirmation must be true, false or a function (toolName, args, ctx) => boolean.`);
    const pinTools = options.pinTools ?? false;
    if (typeof pinTools !== 'boolean' && (typeof pinTools !== 'object' || pinTools === null || (pinTools.approve !== undefined && typeof pinTools.approve !== 'function')))
      throw new ConfigError(`${owner}: pinTools must be true, false or {approve: (change, ctx) => boolean}.`);
    if (pinTools !== false) this.pins = new ToolPins(owner, name, pinTools === true ? {} : pinTools);
    const elicitation = elicitingCalls(owner, options.elicitation);
    const meta = options.meta;
    if (meta !== undefined && typeof meta !== 'function')
      throw new ConfigError(`${owner}: meta must be a function (toolName, args, ctx) => ({...entries}).`);
    const tasks = taskCalls(owner, options.tasks, settings.timeoutMs);
    const session = elicitation ? { ...settings.session, elicitation: true } : settings.session;
    const connections = new ServerConnections(owner, server, session, settings.maxSessions);
    connectionsOf.set(this, { connections, settings });
    this.inlineMedia = settings.inlineMedia;
    this.shared = {
      connections,
      requireConfirmation,
      timeoutMs: settings.timeoutMs,
      tasks,
      ...(meta ? { meta } : {}),
      ...(elicitation ? { elicitation } : {}),
    };
  }

  /** Lists the server's tools for this run's header set (cached until the server says they changed). */
  protected async listTools(ctx: ReadonlyContext): Promise<Tool[]> {
    const oauth = this.shared.connections.oauth;
    if (oauth) return authorizedListing(oauth, this.name, ctx, async (user, forceRefresh) => this.listFor(await this.shared.connections.headerSet(user, forceRefresh), user));
    return this.listFor(await this.shared.connections.headerSet(ctx), ctx);
  }

  private async listFor(set: HeaderSet, ctx: ReadonlyContext): Promise<Tool[]> {
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
      for (const tool of tools) this.ownTools.add(tool);
    }
    return this.pins ? this.pins.check(definitions, tools, ctx) : tools;
  }

  /**
   * Applies `inlineMedia` to the images and audio of this toolset's results (see
   * `applyInlineMedia`), and saves the tool definitions pinned in this step (`pinTools`).
   */
  async processRequest(ctx: RequestContext, request: LlmRequest): Promise<void> {
    applyInlineMedia(request, this.inlineMedia, (name) => {
      const tool = Object.hasOwn(request.tools, name) ? request.tools[name] : undefined;
      return tool !== undefined && this.ownTools.has(tool);
    });
    this.pins?.record(ctx);
  }

  /** Ends every session and stops stdio servers; a later use connects again. */
  override async close(): Promise<void> {
    this.shared.elicitation?.clear();
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
      const resumable = this.shared.elicitation !== undefined || this.shared.tasks.runsAsTask(definition.execution?.taskSupport);
      return resumable ? new ResumableMcpTool(definition, name, set, this.shared) : new McpTool(definition, name, set, this.shared);
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

/** The connections and settings of a toolset, for `mcpResources` to share. */
export function toolsetConnections(toolset: McpToolset): { connections: ServerConnections; settings: ToolsetSettings } | undefined {
  return connectionsOf.get(toolset);
}
