// MCP servers built with the SDK inside the tests, for what the npm servers never do:
// pagination, list_changed, hanging tools, progress, per-user headers, forgotten sessions.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpTransportServer } from '../../src/index.js';

/** A server reached through a new in-memory transport pair on every connect; counts connects. */
export function inMemoryServer(build: () => McpServer | Server): McpTransportServer & { connects: number; servers: (McpServer | Server)[] } {
  const config = {
    connects: 0,
    servers: [] as (McpServer | Server)[],
    transport: async () => {
      const [client, server] = InMemoryTransport.createLinkedPair();
      const built = build();
      config.servers.push(built);
      config.connects++;
      await built.connect(server);
      return client;
    },
  };
  return config;
}

/** One HTTP request the server received: the JSON-RPC methods in it and its headers. */
export interface SeenRequest {
  httpMethod: string;
  rpcMethods: string[];
  headers: IncomingMessage['headers'];
  sessionId?: string;
}

export interface HttpMcpServer {
  url: string;
  seen: SeenRequest[];
  /** Forgets every session, as a restarted server would: the next request gets 404. */
  forgetSessions(): void;
  sessions(): number;
  close(): Promise<void>;
}

/** A Streamable HTTP server on 127.0.0.1 (stateful sessions), recording every request. */
export async function httpMcpServer(build: () => McpServer | Server): Promise<HttpMcpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const seen: SeenRequest[] = [];
  const http: HttpServer = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString();
      const body: unknown = text ? JSON.parse(text) : undefined;
      const messages = Array.isArray(body) ? body : body ? [body] : [];
      const sessionId = req.headers['mcp-session-id'] as string | undefined;
      seen.push({
        httpMethod: req.method ?? '',
        rpcMethods: messages.map((m: { method?: string }) => m.method ?? '(response)'),
        headers: req.headers,
        ...(sessionId ? { sessionId } : {}),
      });
      let transport = sessionId ? transports.get(sessionId) : undefined;
      if (sessionId && !transport) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(
          JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
        );
        return;
      }
      if (!transport) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: true,
          onsessioninitialized: (id) => void transports.set(id, created),
        });
        created.onclose = () => {
          if (created.sessionId) transports.delete(created.sessionId);
        };
        await build().connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    forgetSessions: () => transports.clear(),
    sessions: () => transports.size,
    close: async () => {
      for (const transport of transports.values()) await transport.close().catch(() => {});
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
