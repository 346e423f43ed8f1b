// `guardedFetch` of @adkit/flow/model-kit (#23 points 12, 13), on a real node:http server: a body
// past maxBytes errors with ResponseTooLargeError and the server sees the connection closed; a
// declared Content-Length past it fails before reading; a body that pauses longer than
// idleTimeoutMs errors with ResponseStalledError; a body within both passes whole.
// fetchGuardError finds either inside wrappers.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseStalledError, ResponseTooLargeError, fetchGuardError, guardedFetch } from '../src/modelKit.js';

const servers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

async function serve(handler: (res: ServerResponse) => void): Promise<{ url: string; closed: Promise<void> }> {
  let closed!: () => void;
  const done = new Promise<void>((resolve) => (closed = resolve));
  const server = createServer((_req, res) => {
    res.on('close', closed);
    handler(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, closed: done };
}

const plain = (input: string | URL | Request, init?: RequestInit) => fetch(input, init);

describe('guardedFetch', () => {
  it('a body past maxBytes errors with ResponseTooLargeError, and the connection is closed', async () => {
    const { url, closed } = await serve((res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const response = await guardedFetch(plain, { maxBytes: 100_000 })(url);
    const error = await response.text().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', limit: 100_000 });
    await closed;
  });

  it('a Content-Length past maxBytes fails before the body is read', async () => {
    const { url } = await serve((res) => {
      res.writeHead(200, { 'content-length': '5000000' });
      res.write('x');
    });
    await expect(guardedFetch(plain, { maxBytes: 1000 })(url)).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('a pause longer than idleTimeoutMs errors with ResponseStalledError; a body within the limits passes whole', async () => {
    const stalled = await serve((res) => {
      res.writeHead(200);
      res.write('first');
    });
    const response = await guardedFetch(plain, { maxBytes: 1000, idleTimeoutMs: 100 })(stalled.url);
    await expect(response.text()).rejects.toBeInstanceOf(ResponseStalledError);
    await stalled.closed;

    const fine = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello');
    });
    const ok = await guardedFetch(plain, { maxBytes: 5, idleTimeoutMs: 1000 })(fine.url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/plain');
    expect(await ok.text()).toBe('hello');
  });

  it('fetchGuardError finds the guard error inside causes, and nothing in other errors', () => {
    const inner = new ResponseStalledError(3000);
    expect(fetchGuardError(new Error('SDK wrapper', { cause: new Error('middle', { cause: inner }) }))).toBe(inner);
    expect(fetchGuardError(new Error('connection reset'))).toBeUndefined();
    const cyclic = new Error('loop') as Error & { cause?: unknown };
    cyclic.cause = cyclic;
    expect(fetchGuardError(cyclic)).toBeUndefined();
    expect(fetchGuardError(undefined)).toBeUndefined();
  });
});
