import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mcpToolset, type McpToolset } from '@adkit/mcp-toolset';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { CALENDAR_SCOPE, startLocalProvider, type LocalProvider } from './localProvider.js';

/** The calendar every demo user has (the server says whose it is: the subject of their token). */
const CALENDAR: Record<'today' | 'tomorrow', string[]> = { today: ['09:00 stand-up', '12:30 lunch with Sam', '16:00 train to the airport'], tomorrow: ['08:15 flight to Lisbon'] };

/** The largest request body the server reads (MCP messages are small). */
const MAX_BODY = 1_000_000;

/** The calendar MCP server behind OAuth, its provider, and the toolset that reaches it. */
export interface CalendarService {
  /** `mcpToolset({url, auth})` on the server; named `calendar` (its consent tool is `authorize_calendar`). */
  readonly toolset: McpToolset;
  /** The OpenID provider the server trusts. */
  readonly provider: LocalProvider;
  /** The server's MCP endpoint. */
  readonly url: string;
  /** The app's OAuth callback: a page on this server that says to paste its address back into the demo. */
  readonly redirectUri: string;
  /** Stops the toolset, the MCP server and the provider. */
  close(): Promise<void>;
}

/**
 * Starts the demo's OAuth scenario on 127.0.0.1, offline: `oidc-provider`, and an MCP server
 * over Streamable HTTP whose `list_events` tool shows the signed-in user's calendar. The server
 * accepts only bearer tokens the provider issued (checked against the provider's store; anything
 * else gets 401 with its RFC 9728 metadata), and a session serves the user whose token opened it.
 * The toolset finds the provider from that metadata and registers itself there (RFC 7591).
 */
export async function startCalendarService(): Promise<CalendarService> {
  const provider = await startLocalProvider();
  const transports = new Map<string, { transport: StreamableHTTPServerTransport; sub: string }>();
  let origin = '';
  const metadata = () => ({ resource: `${origin}/mcp`, authorization_servers: [provider.issuer], scopes_supported: ['openid', 'offline_access', CALENDAR_SCOPE] });
  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', origin).pathname;
    if (req.method === 'GET' && (path === '/.well-known/oauth-protected-resource/mcp' || path === '/.well-known/oauth-protected-resource'))
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(metadata()));
    if (req.method === 'GET' && path === '/oauth/callback') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(CALLBACK_PAGE);
    if (path !== '/mcp') return void res.writeHead(404).end();
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const found = token ? await provider.verify(token) : undefined;
    if (!token || !found || !found.scopes.includes(CALENDAR_SCOPE)) {
      const challenge = `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
      return void res.writeHead(401, { 'www-authenticate': challenge, 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_token' }));
    }
    const auth: AuthInfo = { token, clientId: found.clientId, scopes: found.scopes, expiresAt: found.expiresAt, extra: { sub: found.sub } };
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    if (body === TOO_LARGE) return void res.writeHead(413).end();
    if (body === NOT_JSON)
      return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }));
    const sessionId = req.headers['mcp-session-id'];
    const open = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    // A session answers only the user who opened it: another user's token gets "not found".
    if (typeof sessionId === 'string' && (!open || open.sub !== found.sub))
      return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
    let transport = open?.transport;
    if (!transport) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, { transport: created, sub: found.sub }),
      });
      created.onclose = () => void (created.sessionId && transports.delete(created.sessionId));
      await calendarMcpServer().connect(created);
      transport = created;
    }
    (req as IncomingMessage & { auth?: AuthInfo }).auth = auth;
    await transport.handleRequest(req, res, body);
  }

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const redirectUri = `${origin}/oauth/callback`;
  const toolset = mcpToolset({ url: `${origin}/mcp`, auth: { redirectUri, clientName: 'adkit demo' } }, { name: 'calendar' });
  return {
    toolset,
    provider,
    url: `${origin}/mcp`,
    redirectUri,
    async close() {
      try {
        await toolset.close();
        await Promise.all([...transports.values()].map(({ transport }) => transport.close().catch(() => {})));
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      } finally {
        await provider.close();
      }
    },
  };
}

/** The MCP server of one session: `list_events` for the user of the session's token. */
function calendarMcpServer(): McpServer {
  const server = new McpServer({ name: 'demo-calendar', version: '1.0.0' });
  server.registerTool(
    'list_events',
    {
      description: "The events in the signed-in user's calendar, today or tomorrow.",
      inputSchema: { day: z.enum(['today', 'tomorrow']).default('today') },
    },
    async ({ day }, extra) => {
      const user = String(extra.authInfo?.extra?.sub ?? '');
      return { content: [{ type: 'text', text: `${user}'s calendar ${day}: ${CALENDAR[day].join('; ')}` }] };
    },
  );
  return server;
}

const TOO_LARGE = Symbol('too large');
const NOT_JSON = Symbol('not JSON');

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return TOO_LARGE;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** What the browser shows after the consent: the code is in this page's address, which the demo needs. */
const CALLBACK_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>adkit demo: consent given</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto">
<h1>Consent given</h1>
<p>Copy this page's address (the whole URL in the address bar) and paste it into the demo: the chat's prompt, or the consent card's field in the dev UI.</p>
</body></html>`;
