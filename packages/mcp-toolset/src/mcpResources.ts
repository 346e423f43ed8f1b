import { AdkitError, ConfigError, errorMessage, type LlmRequest, type ReadonlyContext, type RequestContext, type Tool } from '@adkit/flow';
import { BaseToolset, type ToolPredicate } from '@adkit/tool';
import { applyInlineMedia, type InlineMediaRule } from './inlineMedia.js';
import { assertServerConfig, type McpServerConfig } from './mcpServerConfig.js';
import { toolsetConnections, type McpToolset } from './mcpToolset.js';
import { ListResourcesTool, ReadResourceTool } from './resourceTools.js';
import { ServerConnections } from './serverConnections.js';
import { assertOptions, toolsetSettings, type McpConnectionOptions } from './toolsetSettings.js';

/** Options of `mcpResources`. */
export interface McpResourcesOptions extends McpConnectionOptions {
  /** The toolset's name, used in error messages; `"mcp_resources"` by default. */
  name?: string;
  /** Which of the two tools the model sees (PK-5). */
  toolFilter?: ToolPredicate | readonly string[];
  /** Renames the tools `<prefix>_list_resources` and `<prefix>_read_resource`. */
  prefix?: string;
}

/**
 * What an MCP server offers besides tools: its resources, as two tools for the model —
 * `list_resources` (one page, with `nextCursor`, and the resource templates) and `read_resource`
 * (one uri's contents as text; images and audio also inline, like tool results). A server without
 * the resources capability gives no tools. Made from an `mcpToolset`, it shares that toolset's
 * connections (closing stays the toolset's job); made from a server config, it has its own.
 */
export class McpResources extends BaseToolset {
  private readonly connections: ServerConnections;
  private readonly owned: boolean;
  private readonly timeoutMs: number;
  private readonly inlineMedia: InlineMediaRule;
  private readonly ownTools = new WeakSet<Tool>();

  constructor(source: McpToolset | McpServerConfig, options: McpResourcesOptions = {}) {
    assertOptions('mcpResources', options);
    const { name = 'mcp_resources', toolFilter, prefix } = options;
    super({ name, ...(toolFilter !== undefined ? { toolFilter } : {}), ...(prefix !== undefined ? { prefix } : {}) });
    const owner = `mcpResources "${name}"`;
    const shared = toolsetConnections(source as McpToolset);
    if (!shared && typeof (source as { tools?: unknown }).tools === 'function')
      throw new ConfigError(`${owner}: pass the toolset mcpToolset returned (not a wrapped one), or the server config itself.`);
    if (!shared) assertServerConfig(owner, source);
    const settings = toolsetSettings(owner, options);
    this.timeoutMs = options.timeoutMs ?? shared?.settings.timeoutMs ?? settings.timeoutMs;
    this.inlineMedia = options.inlineMedia ?? shared?.settings.inlineMedia ?? settings.inlineMedia;
    this.owned = !shared;
    this.connections = shared?.connections ?? new ServerConnections(owner, source as McpServerConfig, settings.session, settings.maxSessions);
  }

  /** The two tools, or none when the server has no resources. */
  protected async listTools(ctx: ReadonlyContext): Promise<Tool[]> {
    const headerSet = await this.connections.headerSet(ctx);
    let offers: boolean;
    try {
      offers = await this.connections.connection(headerSet).use(async (session) => session.client.getServerCapabilities()?.resources !== undefined, () => true);
    } catch (error) {
      throw new AdkitError('MCP_LIST_FAILED', `failed to list MCP resources: ${errorMessage(error)}`, { cause: error });
    }
    if (!offers) return [];
    const shared = { connections: this.connections, headerSet, timeoutMs: this.timeoutMs };
    const tools = [new ListResourcesTool(shared), new ReadResourceTool(shared)];
    for (const tool of tools) this.ownTools.add(tool);
    return tools;
  }

  /** Applies `inlineMedia` to the images and audio of resources read (see `applyInlineMedia`). */
  async processRequest(_ctx: RequestContext, request: LlmRequest): Promise<void> {
    applyInlineMedia(request, this.inlineMedia, (name) => {
      const tool = Object.hasOwn(request.tools, name) ? request.tools[name] : undefined;
      return tool !== undefined && this.ownTools.has(tool);
    });
  }

  /** Closes the connections it owns; shared ones stay with their `mcpToolset`. */
  override async close(): Promise<void> {
    if (this.owned) await this.connections.close();
  }
}

/**
 * An MCP server's resources as two tools, `list_resources` and `read_resource`, so an agent can
 * read what the server offers.
 *
 * ```ts
 * const everything = mcpToolset({ stdio: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } });
 * const agent = new LlmAgent({ ..., toolsets: [everything, mcpResources(everything)] });
 * ```
 */
export function mcpResources(source: McpToolset | McpServerConfig, options?: McpResourcesOptions): McpResources {
  return new McpResources(source, options);
}
