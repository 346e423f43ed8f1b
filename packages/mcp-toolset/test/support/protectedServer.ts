// An MCP server behind OAuth, built with the MCP SDK's server-side auth: Streamable HTTP on
// 127.0.0.1 (express), RFC 9728 protected-resource metadata naming the authorization server, and
// requireBearerAuth verifying each request's token against the provider's own token store.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

export interface TokenCheck {
  verify(token: string): Promise<{ sub: string; scopes: string[]; clientId: string; expiresAt: number } | undefined>;
}

export interface ProtectedMcpServer {
  url: string;
  /** Every bearer token the server accepted or refused, in order. */
  tokens: string[];
  /** Sessions opened (one per user's token). */
  sessions: number;
  close(): Promise<void>;
}

export async function protectedMcpServer(issuer: string, check: TokenCheck): Promise<ProtectedMcpServer> {
  const app = express();
  app.use(express.json());
  const state: ProtectedMcpServer = { url: '', tokens: [], sessions: 0, close: async () => {} };
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const metadata = () => ({ resource: state.url, authorization_servers: [issuer], scopes_supported: ['openid', 'offline_access', 'api:read'] });
  app.get('/.well-known/oauth-protected-resource/mcp', (_req, res) => res.json(metadata()));
  app.get('/.well-known/oauth-protected-resource', (_req, res) => res.json(metadata()));
  const auth = requireBearerAuth({
    verifier: {
      verifyAccessToken: async (token) => {
        state.tokens.push(token);
        const found = await check.verify(token);
        if (!found) throw new InvalidTokenError('The access token is not valid.');
        return { token, clientId: found.clientId, scopes: found.scopes, expiresAt: found.expiresAt, extra: { sub: found.sub } };
      },
    },
    resourceMetadataUrl: undefined,
  });
  app.all('/mcp', auth, async (req, res) => {
    const sessionId = req.headers['mcp-session-id'] as string | undefined;
    let transport = sessionId ? transports.get(sessionId) : undefined;
    if (!transport) {
      if (sessionId) {
        res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
        return;
      }
      const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void transports.set(id, created) });
      transport = created;
      state.sessions++;
      const server = new McpServer({ name: 'protected', version: '1.0.0' });
      server.registerTool('whoami', { description: 'The user the server sees.' }, async (extra) => ({
        content: [{ type: 'text', text: `you are ${String(extra.authInfo?.extra?.sub ?? 'nobody')}` }],
      }));
      await server.connect(created);
    }
    await transport.handleRequest(req, res, req.body);
  });
  const http: Server = await new Promise((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  state.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  state.close = async () => {
    await Promise.all([...transports.values()].map((t) => t.close().catch(() => {})));
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return state;
}
