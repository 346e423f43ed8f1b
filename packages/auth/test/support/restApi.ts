// A REST API behind the provider (Hono on @hono/node-server): bearer tokens are checked against
// the provider's own token store, as a resource server that introspects would.
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import type { OidcServer } from './oidcServer.js';

export interface RestApi {
  url: string;
  /** Every Authorization header the API saw, in order. */
  seen: string[];
  close(): Promise<void>;
}

export async function startRestApi(idp: OidcServer): Promise<RestApi> {
  const seen: string[] = [];
  const app = new Hono();
  app.get('/repos', async (c) => {
    const header = c.req.header('authorization') ?? '';
    seen.push(header);
    const token = /^Bearer (.+)$/i.exec(header)?.[1];
    const valid = token ? await idp.verify(token) : undefined;
    if (!valid || !valid.scopes.includes('api:read')) return c.json({ error: 'invalid_token' }, 401, { 'www-authenticate': 'Bearer error="invalid_token"' });
    return c.json({ owner: valid.sub, repos: ['adkit', 'notes'] });
  });
  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
