import { AdkitError, ConfigError, errorMessage, type Content, type Part, type ReadonlyContext } from '@adkit/flow';
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { embeddedResource, formatContent } from './formatContent.js';
import { assertServerConfig, type McpServerConfig } from './mcpServerConfig.js';
import { toolsetConnections, type McpToolset } from './mcpToolset.js';
import type { McpSession } from './mcpSession.js';
import { withRequestSignal } from './withRequestSignal.js';
import { ServerConnections } from './serverConnections.js';
import { assertOptions, toolsetSettings, type McpConnectionOptions } from './toolsetSettings.js';

/** Options of `mcpPrompts`. */
export interface McpPromptsOptions extends McpConnectionOptions {
  /** The name used in error messages; `"mcp_prompts"` by default. */
  name?: string;
  /**
   * Largest prompt `get` accepts, in characters of text and base64 data; 4,000,000 by default. A
   * bigger one is refused with `MCP_PROMPT_TOO_LARGE` (it would ride along in every request).
   */
  maxPromptChars?: number;
}

/** Where a request to the server comes from: the run (for per-run headers) and a signal. */
export interface McpPromptRequestOptions {
  /** The run's context, needed when the server's headers come from `headers(ctx)`. */
  ctx?: ReadonlyContext;
  signal?: AbortSignal;
}

/** One prompt the server offers, with the arguments it takes. */
export interface McpPromptInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly { readonly name: string; readonly description?: string; readonly required: boolean }[];
}

/** A prompt filled in by the server: its messages as the SDK gave them, and as adkit contents. */
export interface McpPrompt {
  readonly description?: string;
  readonly messages: GetPromptResult['messages'];
  /**
   * The messages as contents to send in a run (`assistant` → `model`): text as text, images and
   * audio as inline data, embedded resources as their label and text, links as their label.
   */
  readonly contents: Content[];
}

const MAX_PAGES = 1_000;

/**
 * An MCP server's prompts, for apps (a prompt is chosen by the user, not the model, so these are
 * not tools): `list()` every prompt with its arguments, `get(name, args)` one filled in. Made from
 * an `mcpToolset`, it shares that toolset's connections; made from a server config, it has its
 * own, which `close()` ends.
 */
export class McpPrompts {
  private readonly connections: ServerConnections;
  private readonly owned: boolean;
  private readonly timeoutMs: number;
  private readonly maxPromptChars: number;
  private readonly owner: string;

  constructor(source: McpToolset | McpServerConfig, options: McpPromptsOptions = {}) {
    assertOptions('mcpPrompts', options);
    const { name = 'mcp_prompts', maxPromptChars = 4_000_000 } = options;
    this.owner = `mcpPrompts "${name}"`;
    const shared = toolsetConnections(source as McpToolset);
    if (!shared && typeof (source as { tools?: unknown }).tools === 'function')
      throw new ConfigError(`${this.owner}: pass the toolset mcpToolset returned (not a wrapped one), or the server config itself.`);
    if (!shared) assertServerConfig(this.owner, source);
    if (!Number.isSafeInteger(maxPromptChars) || maxPromptChars <= 0)
      throw new ConfigError(`${this.owner}: maxPromptChars must be a positive integer, got ${String(maxPromptChars)}.`);
    this.maxPromptChars = maxPromptChars;
    const settings = toolsetSettings(this.owner, options);
    this.timeoutMs = options.timeoutMs ?? shared?.settings.timeoutMs ?? settings.timeoutMs;
    this.owned = !shared;
    this.connections = shared?.connections ?? new ServerConnections(this.owner, source as McpServerConfig, settings.session, settings.maxSessions);
  }

  /** Every prompt of the server, all pages; none when it has no prompts capability. */
  async list(options: McpPromptRequestOptions = {}): Promise<McpPromptInfo[]> {
    return this.request('list MCP prompts', options, async (session, request) => {
      if (session.client.getServerCapabilities()?.prompts === undefined) return [];
      const prompts: McpPromptInfo[] = [];
      const seen = new Set<string>();
      let cursor: string | undefined;
      for (let page = 1; ; page++) {
        const result = await session.client.listPrompts(cursor === undefined ? {} : { cursor }, request);
        for (const prompt of result.prompts) prompts.push(promptInfo(prompt));
        const next = result.nextCursor;
        if (next === undefined || next === '') return prompts;
        if (seen.has(next) || page >= MAX_PAGES) throw new Error('the server listed too many pages of prompts, or repeated a cursor');
        seen.add(next);
        cursor = next;
      }
    });
  }

  /**
   * One prompt filled in with `args` (string values, as MCP prompts take them). Missing required
   * arguments are reported by the server; a prompt bigger than `maxPromptChars` is refused.
   */
  async get(name: string, args: Record<string, string> = {}, options: McpPromptRequestOptions = {}): Promise<McpPrompt> {
    if (typeof name !== 'string' || name.length === 0) throw new ConfigError(`${this.owner}: get(name) needs a prompt name.`);
    for (const key of Object.keys(args ?? {}))
      if (typeof args[key] !== 'string')
        throw new ConfigError(`${this.owner}: argument "${key.slice(0, 100)}" of prompt "${name.slice(0, 100)}" must be a string, got ${typeof args[key]}.`);
    const result = await this.request(`get MCP prompt "${name.slice(0, 100)}"`, options, (session, request) =>
      session.client.getPrompt({ name, arguments: { ...args } }, request),
    );
    const size = promptChars(result);
    if (size > this.maxPromptChars)
      throw new AdkitError(
        'MCP_PROMPT_TOO_LARGE',
        `${this.owner}: prompt "${name.slice(0, 100)}" has ${size} characters, more than maxPromptChars (${this.maxPromptChars}); raise the option if it is expected.`,
      );
    return {
      ...(typeof result.description === 'string' ? { description: result.description } : {}),
      messages: result.messages,
      contents: result.messages.map((message) => ({ role: message.role === 'assistant' ? 'model' : 'user', parts: [promptPart(message.content)] })),
    };
  }

  /** Closes the connections it owns; shared ones stay with their `mcpToolset`. */
  async close(): Promise<void> {
    if (this.owned) await this.connections.close();
  }

  private async request<T>(
    what: string,
    options: McpPromptRequestOptions,
    operation: (session: McpSession, request: { signal: AbortSignal; timeout: number }) => Promise<T>,
  ): Promise<T> {
    const set = await this.connections.headerSet(options.ctx as ReadonlyContext);
    const signal = options.signal ?? new AbortController().signal;
    const timeout = this.timeoutMs;
    try {
      return await this.connections.connection(set).use((session) => withRequestSignal(signal, (own) => operation(session, { signal: own, timeout })), () => true);
    } catch (error) {
      if (error instanceof AdkitError && error.code === 'INVALID_CONFIG') throw error;
      throw new AdkitError('MCP_PROMPT_FAILED', `${this.owner}: failed to ${what}: ${errorMessage(error)}`, { cause: error });
    }
  }
}

function promptInfo(prompt: Prompt): McpPromptInfo {
  return {
    name: prompt.name,
    ...(prompt.title !== undefined ? { title: prompt.title } : {}),
    ...(prompt.description !== undefined ? { description: prompt.description } : {}),
    arguments: (prompt.arguments ?? []).map((argument) => ({
      name: argument.name,
      ...(argument.description !== undefined ? { description: argument.description } : {}),
      required: argument.required === true,
    })),
  };
}

/** One message's content as a part: inline data for media, text (or a label) for the rest. */
function promptPart(block: GetPromptResult['messages'][number]['content']): Part {
  if (block.type === 'text') return { text: block.text };
  if (block.type === 'image' || block.type === 'audio') return { inlineData: { mimeType: block.mimeType, data: block.data } };
  if (block.type === 'resource') return { text: embeddedResource(block.resource as Record<string, unknown>) };
  return { text: formatContent([block]).text };
}

/** The characters of text and data a prompt carries, counted without copying them. */
function promptChars(result: GetPromptResult): number {
  let size = result.description?.length ?? 0;
  for (const { content } of result.messages) {
    const block = content as { text?: unknown; data?: unknown; resource?: { text?: unknown; blob?: unknown } };
    for (const value of [block.text, block.data, block.resource?.text, block.resource?.blob]) if (typeof value === 'string') size += value.length;
  }
  return size;
}

/**
 * An MCP server's prompts for an app to offer its users (slash commands, templates).
 *
 * ```ts
 * const prompts = mcpPrompts(everything);
 * for (const prompt of await prompts.list()) console.log(prompt.name, prompt.arguments);
 * const { contents } = await prompts.get('args-prompt', { city: 'Lisbon' });
 * ```
 */
export function mcpPrompts(source: McpToolset | McpServerConfig, options?: McpPromptsOptions): McpPrompts {
  return new McpPrompts(source, options);
}
