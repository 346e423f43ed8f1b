import { ConfigError, type ReadonlyContext } from '@adkit/flow';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { assertAuthOptions, type McpAuthOptions } from './mcpAuth.js';

/** HTTP headers sent with every request to an MCP server (name → value). */
export type McpHeaders = Readonly<Record<string, string>>;

/**
 * Headers for one run, read from its context, e.g. a user's token from `ctx.context`. The toolset
 * keeps one session per distinct header set and uses it for that run's listing and calls.
 */
export type McpHeadersProvider = (ctx: ReadonlyContext) => McpHeaders | Promise<McpHeaders>;

/** A server started as a child process, spoken to over its stdin/stdout. */
export interface McpStdioServer {
  stdio: {
    /** The program, e.g. `process.execPath` or `"npx"`. */
    command: string;
    args?: readonly string[];
    /**
     * Environment of the child. It gets only these plus a few safe variables of this process
     * (`HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`), not the whole environment.
     */
    env?: Readonly<Record<string, string>>;
    cwd?: string;
    /** Where the child's stderr goes: this process's stderr (`"inherit"`, the default) or nowhere. */
    stderr?: 'inherit' | 'ignore';
  };
}

/** A server reached over HTTP: Streamable HTTP, or the legacy HTTP+SSE transport. */
export interface McpHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:3001/mcp` (or `…/sse` for a legacy server). */
  url: string | URL;
  /** Fixed headers, or a function of the run's context (per-user headers, one session each). */
  headers?: McpHeaders | McpHeadersProvider;
  /**
   * `"auto"` (the default) tries Streamable HTTP and falls back to legacy HTTP+SSE when the server
   * answers the first request with a 4xx status; or name the one to use.
   */
  protocol?: 'auto' | 'streamable-http' | 'sse';
  /** The `fetch` to use (a proxy, a test double); the global one by default. */
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /**
   * The server is behind OAuth: each user authorizes it once, through adkit's credential protocol
   * (the runner needs `credentials` from `@adkit/auth`); see the README's "Servers behind OAuth".
   */
  auth?: McpAuthOptions;
}

/**
 * Any transport of the MCP SDK (in-memory, WebSocket, your own). A function returning a new
 * transport each time lets the toolset reconnect (MCP-4); a transport instance serves one
 * connection only.
 */
export interface McpTransportServer {
  transport: Transport | (() => Transport | Promise<Transport>);
}

/** Where the MCP server is: a child process (stdio), a URL (HTTP), or a transport. */
export type McpServerConfig = McpStdioServer | McpHttpServer | McpTransportServer;

/** Header names the transport sets itself; a user header of this name would break the session. */
const RESERVED_HEADERS = new Set(['mcp-session-id', 'mcp-protocol-version', 'content-type', 'accept', 'last-event-id']);

/** Checks the server configuration, throwing a `ConfigError` that names the fix. */
export function assertServerConfig(owner: string, server: unknown): asserts server is McpServerConfig {
  if (typeof server !== 'object' || server === null)
    throw new ConfigError(
      `${owner}: expected a server such as {stdio: {command, args}}, {url: "http://127.0.0.1:3001/mcp"} or {transport}, got ${server === null ? 'null' : typeof server}.`,
    );
  const kinds = (['stdio', 'url', 'transport'] as const).filter((key) => (server as Record<string, unknown>)[key] !== undefined);
  if (kinds.length !== 1)
    throw new ConfigError(
      `${owner}: give exactly one of stdio, url or transport, got ${kinds.length === 0 ? 'none' : kinds.join(' and ')}.`,
    );
  if ('stdio' in server && server.stdio !== undefined) {
    const stdio = server.stdio as Partial<McpStdioServer['stdio']> | null;
    if (typeof stdio !== 'object' || stdio === null || typeof stdio.command !== 'string' || stdio.command.length === 0)
      throw new ConfigError(`${owner}: stdio.command must be the program to start, e.g. {stdio: {command: "npx", args: ["-y", "some-mcp-server"]}}.`);
    if (stdio.args !== undefined && (!Array.isArray(stdio.args) || stdio.args.some((arg) => typeof arg !== 'string')))
      throw new ConfigError(`${owner}: stdio.args must be an array of strings.`);
    if (stdio.env !== undefined && !isStringRecord(stdio.env))
      throw new ConfigError(`${owner}: stdio.env must map variable names to string values.`);
    if (stdio.stderr !== undefined && stdio.stderr !== 'inherit' && stdio.stderr !== 'ignore')
      throw new ConfigError(`${owner}: stdio.stderr must be "inherit" or "ignore", got ${JSON.stringify(stdio.stderr)}.`);
    if ((server as Record<string, unknown>).headers !== undefined)
      throw new ConfigError(`${owner}: headers apply to servers reached by url, not to a stdio server; pass environment variables in stdio.env instead.`);
    return;
  }
  if ('url' in server && server.url !== undefined) {
    const { url, headers, protocol, fetch } = server as McpHttpServer;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ConfigError(`${owner}: url must be an absolute http(s) URL such as "http://127.0.0.1:3001/mcp", got ${JSON.stringify(String(url))}.`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new ConfigError(`${owner}: url must use http or https, got "${parsed.protocol}"; for other transports pass {transport}.`);
    if (headers !== undefined && typeof headers !== 'function') checkHeaders(owner, headers);
    if (protocol !== undefined && protocol !== 'auto' && protocol !== 'streamable-http' && protocol !== 'sse')
      throw new ConfigError(`${owner}: protocol must be "auto", "streamable-http" or "sse", got ${JSON.stringify(protocol)}.`);
    if (fetch !== undefined && typeof fetch !== 'function') throw new ConfigError(`${owner}: fetch must be a function like the global fetch.`);
    const { auth } = server as McpHttpServer;
    if (auth !== undefined) assertAuthOptions(owner, auth);
    return;
  }
  const { transport } = server as McpTransportServer;
  if (typeof transport !== 'function' && (typeof transport !== 'object' || transport === null || typeof transport.start !== 'function'))
    throw new ConfigError(
      `${owner}: transport must be an MCP SDK Transport or a function returning a new one (so the toolset can reconnect).`,
    );
  if ((server as Record<string, unknown>).headers !== undefined)
    throw new ConfigError(`${owner}: headers apply to servers reached by url; set them on your transport instead.`);
}

/**
 * Checks a header set (from the configuration or from `headers(ctx)`) and returns it as a plain
 * record; throws a `ConfigError` for a non-string value or a header the transport sets itself.
 */
export function checkHeaders(owner: string, headers: unknown): McpHeaders {
  if (!isStringRecord(headers))
    throw new ConfigError(`${owner}: headers must map header names to string values, e.g. {authorization: "Bearer …"}.`);
  for (const name of Object.keys(headers))
    if (RESERVED_HEADERS.has(name.toLowerCase()))
      throw new ConfigError(`${owner}: the header "${name}" is set by the MCP transport itself; leave it out of headers.`);
  return headers;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key of Object.keys(value)) if (typeof (value as Record<string, unknown>)[key] !== 'string') return false;
  return true;
}
