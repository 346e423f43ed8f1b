import { ConfigError } from '@adkit/flow';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { defaultInlineMedia, type InlineMediaRule } from './inlineMedia.js';
import type { SessionSettings } from './mcpSession.js';

/** The connection and result options `mcpToolset` and `mcpResources` share. */
export interface McpConnectionOptions {
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

/** The checked options, defaults filled in. */
export interface ToolsetSettings {
  readonly session: SessionSettings;
  readonly timeoutMs: number;
  readonly maxSessions: number;
  readonly inlineMedia: InlineMediaRule;
}

const DEFAULT_CLIENT_INFO: Implementation = { name: 'adkit-mcp-client', version: '1.0.0' };

/** Checks the shared options, throwing a `ConfigError` that names the fix. */
export function toolsetSettings(owner: string, options: McpConnectionOptions): ToolsetSettings {
  const timeoutMs = positive(owner, 'timeoutMs', options.timeoutMs, 60_000);
  const connectTimeoutMs = positive(owner, 'connectTimeoutMs', options.connectTimeoutMs, 30_000);
  const maxSessions = positive(owner, 'maxSessions', options.maxSessions, 16);
  const inlineMedia = options.inlineMedia ?? defaultInlineMedia;
  if (typeof inlineMedia !== 'boolean' && typeof inlineMedia !== 'function')
    throw new ConfigError(`${owner}: inlineMedia must be true, false or a function ({kind, mimeType, model}) => boolean.`);
  const clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
  if (typeof clientInfo?.name !== 'string' || typeof clientInfo.version !== 'string')
    throw new ConfigError(`${owner}: clientInfo must be {name, version} strings.`);
  return { session: { clientInfo, connectTimeoutMs, requestTimeoutMs: timeoutMs }, timeoutMs, maxSessions, inlineMedia };
}

/** Checks that the options are an object (or absent). */
export function assertOptions(owner: string, options: unknown): void {
  if (options !== undefined && (typeof options !== 'object' || options === null))
    throw new ConfigError(`${owner}: options must be an object such as {prefix: "github"}, got ${options === null ? 'null' : typeof options}.`);
}

function positive(owner: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new ConfigError(`${owner}: ${name} must be a positive number, got ${String(value)}; leave it out for ${fallback}.`);
  return value;
}
