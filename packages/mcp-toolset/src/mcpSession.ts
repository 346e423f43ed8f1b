import { errorMessage } from '@adkit/flow';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema, type Implementation, type Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import { ElicitationRouter } from './elicitationRouter.js';
import type { McpHeaders, McpHttpServer, McpServerConfig, McpStdioServer } from './mcpServerConfig.js';

/** How a session is opened and how long its requests may take. */
export interface SessionSettings {
  readonly clientInfo: Implementation;
  /** Limit for connecting (spawn or HTTP handshake, then `initialize`). */
  readonly connectTimeoutMs: number;
  /** Limit for each `tools/list` page and other listing requests. */
  readonly requestTimeoutMs: number;
  /** Declares the elicitation capability (form and URL) and routes the server's requests to calls. */
  readonly elicitation?: boolean;
}

/** Transports given as instances: each can start once. */
const usedTransports = new WeakSet<Transport>();

/** A server listing more pages than this, or repeating a cursor, is refused (MCP-5). */
const MAX_PAGES = 1_000;

/**
 * One connected MCP client: the SDK `Client`, its transport, and the server's tool list, fetched
 * page by page on first use (MCP-5) and cached until the server sends
 * `notifications/tools/list_changed`. `closed` turns true when the transport closes (the child
 * exited, the stream ended), so the owner replaces the session before its next request.
 */
export class McpSession {
  closed = false;
  /** Where the server's `elicitation/create` requests go: the call in flight that asked. */
  readonly elicitations = new ElicitationRouter();
  /** The last error the transport reported, to explain a closed connection. */
  lastError?: Error;
  private tools?: Promise<readonly SdkTool[]>;
  private closing?: Promise<void>;

  private constructor(
    readonly client: Client,
    readonly transport: Transport,
    private readonly requestTimeoutMs: number,
  ) {}

  /**
   * Connects to the server: spawns the stdio child, or opens the HTTP session (Streamable HTTP,
   * falling back to legacy SSE on a 4xx answer when `protocol` is `"auto"`), or starts the given
   * transport; then runs `initialize`. Bounded by `connectTimeoutMs`, and ended at once by
   * `signal` (the toolset was closed meanwhile); a failed attempt leaves no child process behind.
   */
  static async open(server: McpServerConfig, headers: McpHeaders, settings: SessionSettings, signal?: AbortSignal): Promise<McpSession> {
    if ('stdio' in server && server.stdio) return McpSession.connect(stdioTransport(server.stdio), settings, signal);
    if ('url' in server && server.url !== undefined) {
      const http = server as McpHttpServer;
      const url = new URL(http.url);
      const protocol = http.protocol ?? 'auto';
      const init = { requestInit: { headers: { ...headers } }, ...(http.fetch ? { fetch: http.fetch } : {}) };
      if (protocol === 'sse') return McpSession.connect(new SSEClientTransport(url, init), settings, signal);
      try {
        return await McpSession.connect(new StreamableHTTPClientTransport(url, init), settings, signal);
      } catch (error) {
        if (protocol === 'streamable-http' || !isClientError(error)) throw error;
        // A legacy HTTP+SSE server answers the Streamable HTTP POST with 4xx (spec, backwards compatibility).
        try {
          return await McpSession.connect(new SSEClientTransport(url, init), settings, signal);
        } catch (legacyError) {
          throw new Error(`${errorMessage(error)}; as a legacy SSE server: ${errorMessage(legacyError)}`, { cause: legacyError });
        }
      }
    }
    const given = (server as { transport: Transport | (() => Transport | Promise<Transport>) }).transport;
    if (typeof given === 'function') return McpSession.connect(await given(), settings, signal);
    if (usedTransports.has(given))
      throw new Error(
        'the transport instance served a connection already and cannot start again; pass a function returning a new transport, e.g. {transport: () => new WebSocketClientTransport(url)}, so the toolset can reconnect',
      );
    usedTransports.add(given);
    return McpSession.connect(given, settings, signal);
  }

  private static async connect(transport: Transport, settings: SessionSettings, signal?: AbortSignal): Promise<McpSession> {
    const client = new Client(settings.clientInfo, { capabilities: settings.elicitation ? { elicitation: { form: {}, url: {} } } : {} });
    const session = new McpSession(client, transport, settings.requestTimeoutMs);
    if (settings.elicitation) client.setRequestHandler(ElicitRequestSchema, (request) => session.elicitations.receive(request.params));
    client.onclose = () => {
      session.closed = true;
    };
    client.onerror = (error) => {
      session.lastError = error;
      // A stdio server whose message overflowed the SDK's 10 MB read buffer is broken; the SDK
      // closes it gently (stdin, then 2 s, SIGTERM, 2 s) while it keeps writing. Stop it now.
      const pid = session.pid;
      if (pid !== undefined && error.message.startsWith('ReadBuffer exceeded')) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      session.tools = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the server did not answer within ${settings.connectTimeoutMs} ms`)),
        settings.connectTimeoutMs,
      );
      // Closing the toolset ends a connect still waiting for `initialize` now, child process and all.
      onAbort = () => reject(new Error('the toolset was closed while connecting'));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([client.connect(transport, { timeout: settings.connectTimeoutMs }), timedOut]);
      return session;
    } catch (error) {
      await session.close();
      throw error;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The stdio child's process id, when the server runs as one. */
  get pid(): number | undefined {
    return this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  /** Every tool of the server, all pages, cached until `list_changed` (MCP-5). */
  listTools(): Promise<readonly SdkTool[]> {
    let tools = this.tools;
    if (!tools) {
      const pending = listAllTools(this.client, this.requestTimeoutMs);
      this.tools = tools = pending;
      pending.catch(() => {
        if (this.tools === pending) this.tools = undefined;
      });
    }
    return tools;
  }

  /**
   * Ends the session: an HTTP session is deleted on the server (`DELETE`, 2 s at most), then the
   * client and transport close; a stdio child gets its stdin closed, then SIGTERM, then SIGKILL,
   * and is gone when this resolves (unless it needed SIGKILL). Safe to call twice.
   */
  close(): Promise<void> {
    this.closed = true;
    this.closing ??= (async () => {
      const transport = this.transport;
      if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined)
        await withTimeout(transport.terminateSession(), 2_000).catch(() => {});
      await this.client.close().catch(() => {});
    })();
    return this.closing;
  }

  /** The transport's last error, as a note for a message (`; last transport error: …`). */
  lastErrorNote(): string {
    return this.lastError ? ` (last transport error: ${errorMessage(this.lastError)})` : '';
  }
}

function stdioTransport(stdio: McpStdioServer['stdio']): StdioClientTransport {
  return new StdioClientTransport({
    command: stdio.command,
    args: [...(stdio.args ?? [])],
    ...(stdio.env ? { env: { ...stdio.env } } : {}),
    ...(stdio.cwd !== undefined ? { cwd: stdio.cwd } : {}),
    stderr: stdio.stderr ?? 'inherit',
  });
}

async function listAllTools(client: Client, timeout: number): Promise<readonly SdkTool[]> {
  const tools: SdkTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout });
    for (const tool of result.tools) tools.push(tool);
    const next = result.nextCursor;
    if (next === undefined || next === '') return tools;
    if (seen.has(next)) throw new Error(`the server sent the cursor ${JSON.stringify(next.slice(0, 100))} twice; its pagination loops`);
    if (page >= MAX_PAGES) throw new Error(`the server listed more than ${MAX_PAGES} pages of tools`);
    seen.add(next);
    cursor = next;
  }
}

/**
 * A Streamable HTTP answer with a 4xx status (what a legacy SSE-only server sends), other than
 * 401 and 403: a server refusing the credentials would refuse them over SSE too.
 */
function isClientError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    error instanceof Error &&
    error.message.startsWith('Streamable HTTP error:') &&
    typeof code === 'number' &&
    code >= 400 &&
    code < 500 &&
    code !== 401 &&
    code !== 403
  );
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
