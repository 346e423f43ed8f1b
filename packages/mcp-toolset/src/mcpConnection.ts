import { AdkitError, errorMessage } from '@adkit/flow';
import { connectionFailure, type ConnectionFailure } from './connectionFailure.js';
import type { McpSession } from './mcpSession.js';

/** Decides whether a request that failed this way may be sent again on a new session. */
export type RetryPolicy = (failure: Exclude<ConnectionFailure, undefined>) => boolean;

/**
 * One persistent connection to a server (for one header set), shared by every listing and call:
 * - it connects lazily on first use, once even when many calls arrive together (MCP-3);
 * - a session whose transport closed (the child exited) is replaced before the next request;
 * - a request failing because the connection broke (closed transport, EOF, reset, a session the
 *   server forgot) replaces the session — unless another caller already did — and is sent once
 *   more when `retry` allows it (MCP-4); concurrent failures cause one reconnect;
 * - `close()` ends the session, and ends a connect still under way at once (a server that never
 *   answers `initialize` does not hold it up for `connectTimeoutMs`).
 */
export class McpConnection {
  /** Requests in flight; an idle connection may be evicted from a pool. */
  busy = 0;
  private current?: Promise<McpSession>;
  /** The session `current` resolved to, for the common case without an await. */
  private ready?: McpSession;
  private generation = 0;
  private readonly closing = new Set<Promise<void>>();
  /** Aborts the connect under way, if any. */
  private connecting?: AbortController;

  constructor(private readonly open: (signal: AbortSignal) => Promise<McpSession>) {}

  /**
   * Runs `operation` on the session (connecting first if needed). On a connection failure it
   * reconnects and, if `retry` allows, runs it once more; a second connection failure is reported
   * as `connection lost again after reconnection`. Other errors pass through unchanged.
   */
  async use<T>(operation: (session: McpSession) => Promise<T>, retry: RetryPolicy): Promise<T> {
    this.busy++;
    try {
      const ready = this.ready;
      const session = ready && !ready.closed ? ready : await this.session();
      try {
        return await operation(session);
      } catch (error) {
        const failure = connectionFailure(error);
        if (failure === undefined) throw error;
        // The server may have run it: the caller decides what to tell the model.
        if (!retry(failure))
          throw new AdkitError('MCP_CALL_INTERRUPTED', `${errorMessage(error)}${session.lastErrorNote()}`, { cause: error });
        let fresh: McpSession;
        try {
          fresh = await this.refresh(session);
        } catch (refreshError) {
          throw new AdkitError(
            'MCP_RECONNECT_FAILED',
            `${errorMessage(error)}${session.lastErrorNote()} (reconnection also failed: ${errorMessage(refreshError)})`,
            { cause: error },
          );
        }
        try {
          return await operation(fresh);
        } catch (again) {
          if (connectionFailure(again) === undefined) throw again;
          throw new AdkitError('MCP_CONNECTION_LOST', `connection lost again after reconnection: ${errorMessage(again)}${fresh.lastErrorNote()}`, {
            cause: again,
          });
        }
      }
    } finally {
      this.busy--;
    }
  }

  /** The session of the moment, if one is connected (for tests and diagnostics). */
  async peek(): Promise<McpSession | undefined> {
    return this.current?.catch(() => undefined);
  }

  /** Ends the session (and any connect under way); the next request connects again. */
  async close(): Promise<void> {
    this.generation++;
    const current = this.current;
    this.current = undefined;
    this.ready = undefined;
    this.connecting?.abort();
    this.connecting = undefined;
    const session = await current?.catch(() => undefined);
    await Promise.all([session?.close(), ...this.closing]);
  }

  /** The live session: connects on first use (single-flight) and replaces a closed one. */
  private async session(): Promise<McpSession> {
    let session: McpSession | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const current = (this.current ??= this.connect());
      session = await current;
      if (!session.closed) return session;
      this.drop(current, session);
    }
    return session!;
  }

  private connect(): Promise<McpSession> {
    const generation = this.generation;
    const connecting = new AbortController();
    this.connecting = connecting;
    const pending = this.open(connecting.signal).then(
      async (session) => {
        if (generation === this.generation) {
          this.ready = session;
          return session;
        }
        await session.close();
        throw new AdkitError('MCP_CLOSED', 'the toolset was closed while connecting');
      },
      (error: unknown) => {
        throw new AdkitError('MCP_CONNECT_FAILED', `failed to init MCP session: ${errorMessage(error)}`, { cause: error });
      },
    );
    pending.catch(() => {
      if (this.current === pending) this.current = undefined;
    });
    return pending;
  }

  /** MCP-4: the session after `failed` broke — the one another caller opened, or a new one. */
  private async refresh(failed: McpSession): Promise<McpSession> {
    const current = this.current;
    if (current) {
      const session = await current.catch(() => undefined);
      if (session && session !== failed && !session.closed) return session;
      if (this.current === current) this.drop(current, failed);
    }
    return this.session();
  }

  private drop(current: Promise<McpSession>, session: McpSession): void {
    if (this.current === current) this.current = undefined;
    if (this.ready === session) this.ready = undefined;
    const closing = session.close();
    this.closing.add(closing);
    void closing.finally(() => this.closing.delete(closing));
  }
}
