import { ConfigError, errorMessage, type ReadonlyContext } from '@adkit/flow';
import { McpConnection } from './mcpConnection.js';
import { checkHeaders, type McpHeaders, type McpHttpServer, type McpServerConfig } from './mcpServerConfig.js';
import { McpSession, type SessionSettings } from './mcpSession.js';
import { McpOAuth } from './mcpAuth.js';

/** A header set and its canonical key (lower-cased names, sorted). */
export interface HeaderSet {
  readonly key: string;
  readonly headers: McpHeaders;
}

const NO_HEADERS: HeaderSet = Object.freeze({ key: '', headers: Object.freeze({}) });

/**
 * The connections to one server: one per distinct header set (just one without per-run headers),
 * most recently used first; beyond `maxSessions`, the least recently used idle one is closed.
 * Shared by an `mcpToolset` and the `mcpResources` made from it.
 */
export class ServerConnections {
  private readonly connections = new Map<string, McpConnection>();
  private readonly headers?: McpHttpServer['headers'];
  /** Set for a server behind OAuth: each user's token is a header set, so each gets a session. */
  readonly oauth?: McpOAuth;

  constructor(
    private readonly owner: string,
    private readonly server: McpServerConfig,
    private readonly settings: SessionSettings,
    private readonly maxSessions: number,
  ) {
    if ('url' in server && server.url !== undefined) {
      this.headers = server.headers;
      if (server.auth) this.oauth = new McpOAuth(owner, new URL(server.url), server.auth, server.fetch);
    }
  }

  /**
   * The header set for a run: from the configuration, or from `headers(ctx)` (checked); with
   * `auth`, plus the user's bearer token (`forceRefresh` after the server refused it).
   */
  async headerSet(ctx: ReadonlyContext, forceRefresh = false): Promise<HeaderSet> {
    if (!this.oauth) return this.givenHeaderSet(ctx);
    const given = await this.givenHeaderSet(ctx);
    return headerSetOf(this.owner, { ...given.headers, ...(await this.oauth.headers(ctx, forceRefresh)) });
  }

  private async givenHeaderSet(ctx: ReadonlyContext): Promise<HeaderSet> {
    const headers = this.headers;
    if (headers === undefined) return NO_HEADERS;
    if (typeof headers !== 'function') return headerSetOf(this.owner, headers);
    let given: unknown;
    try {
      given = await headers(ctx);
    } catch (error) {
      throw new ConfigError(`${this.owner}: headers(ctx) failed: ${errorMessage(error)}`, { cause: error });
    }
    return headerSetOf(this.owner, given);
  }

  /** The connection for a header set, created (not yet connected) on first use. */
  connection(set: HeaderSet): McpConnection {
    const connections = this.connections;
    let connection = connections.get(set.key);
    if (connection) {
      if (connections.size > 1) {
        // Most recently used last, so eviction finds the oldest first.
        connections.delete(set.key);
        connections.set(set.key, connection);
      }
      return connection;
    }
    connection = new McpConnection((signal) => McpSession.open(this.server, set.headers, this.settings, signal));
    connections.set(set.key, connection);
    if (connections.size > this.maxSessions)
      for (const [key, old] of connections) {
        if (connections.size <= this.maxSessions) break;
        if (old === connection || old.busy > 0) continue;
        connections.delete(key);
        void old.close();
      }
    return connection;
  }

  /** Closes every connection (sessions, child processes); a later request connects again. */
  async close(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((connection) => connection.close()));
  }
}

/** Checks headers (string values, valid names and values, none the transport sets) and keys them. */
function headerSetOf(owner: string, given: unknown): HeaderSet {
  const headers = checkHeaders(owner, given);
  const entries = Object.keys(headers).map((name) => [name.toLowerCase(), headers[name]!] as [string, string]);
  if (entries.length === 0) return NO_HEADERS;
  try {
    new Headers(entries);
  } catch (error) {
    throw new ConfigError(`${owner}: invalid header: ${errorMessage(error)}`, { cause: error });
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // Not enumerable: header values are often tokens, and tools keep their set; a tool serialized
  // (a model request logged, a dev UI page) must not carry them.
  return Object.freeze(
    Object.defineProperties({} as HeaderSet, {
      key: { value: JSON.stringify(entries), enumerable: false },
      headers: { value: Object.freeze(Object.fromEntries(entries)), enumerable: false },
    }),
  );
}
