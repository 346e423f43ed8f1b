// What a model (or a hostile server) can make the toolset do: the base URL is the app's, private
// addresses are refused unless allowed, path parameters stay one segment, headers cannot be
// injected, `__proto__` is data. Refused addresses are refused before any connection is made.
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { openApiToolset } from '../src/index.js';
import { ordersApp, ordersSpec } from './support/orders31.js';
import { petstoreApp, petstoreSpec, startServer, type RunningServer } from './support/petstore.js';
import { listTools, runCalls } from './support/run.js';

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function start(app: Hono, base = '') {
  const server = await startServer(app, base);
  servers.push(server);
  return server;
}

const auth = { api_key: { apiKey: 'secret-key' } };

describe('addresses', () => {
  it('loopback is refused unless the app allows it (the server sees nothing)', async () => {
    const server = await start(petstoreApp(), '/v1');
    const { responses } = await runCalls(openApiToolset({ spec: petstoreSpec, baseUrl: server.url, auth }), [{ name: 'listPets', args: {} }]);
    expect(responses[0]!.response).toEqual({
      error: 'Tool "listPets" could not call GET /v1/pets: requests to 127.0.0.1 are refused: it is a loopback address, and the app did not allow it (allowPrivateAddresses).',
    });
    expect(server.seen).toEqual([]);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254', 'linkLocal'],
    ['http://10.1.2.3/v1', '10.1.2.3', 'private'],
    ['http://192.168.0.10/v1', '192.168.0.10', 'private'],
    ['http://100.64.0.1/v1', '100.64.0.1', 'carrierGradeNat'],
    ['http://[::1]:9/v1', '::1', 'loopback'],
    ['http://[::ffff:169.254.169.254]/v1', '::ffff:a9fe:a9fe', 'linkLocal'],
    ['http://0.0.0.0:9/v1', '0.0.0.0', 'unspecified'],
  ])('%s is refused (%s, %s)', async (baseUrl, shown, range) => {
    const { responses } = await runCalls(openApiToolset({ spec: petstoreSpec, baseUrl, auth, allowPrivateAddresses: ['127.0.0.1'] }), [
      { name: 'listPets', args: {} },
    ]);
    expect(responses[0]!.response!.error).toContain(`requests to ${shown} are refused: it is a ${range} address`);
  });

  it('host names are resolved first: localhost is loopback', async () => {
    const server = await start(petstoreApp(), '/v1');
    const baseUrl = server.url.replace('127.0.0.1', 'localhost');
    const { responses } = await runCalls(openApiToolset({ spec: petstoreSpec, baseUrl, auth }), [{ name: 'listPets', args: {} }]);
    expect(responses[0]!.response!.error).toMatch(/requests to localhost \((127\.0\.0\.1|::1)\) are refused: it is a loopback address/);
    expect(server.seen).toEqual([]);
  });

  it('a redirect to the metadata address is refused; one to another allowed origin loses the credentials', async () => {
    const other = await start(new Hono().get('/landing', (c) => c.json({ here: true })));
    const app = new Hono()
      .get('/pets', (c) => c.redirect('http://169.254.169.254/latest/meta-data/', 302))
      .get('/pets/:id', (c) => c.redirect(`${other.url}/landing`, 307));
    const server = await start(app, '/v1');
    const toolset = openApiToolset({ spec: petstoreSpec, baseUrl: server.url, auth, allowPrivateAddresses: ['127.0.0.1'] });
    const { responses } = await runCalls(toolset, [
      { name: 'listPets', args: {} },
      { name: 'showPetById', args: { petId: '1' } },
    ]);
    expect(responses[0]!.response!.error).toBe(
      'Tool "listPets" could not call GET /v1/pets: requests to 169.254.169.254 are refused: it is a linkLocal address, and the app did not allow it (allowPrivateAddresses).',
    );
    expect(responses[1]!.response).toMatchObject({ status: 200, body: { here: true } });
    expect(server.seen.map((r) => r.headers['x-api-key'])).toEqual(['secret-key', 'secret-key']);
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('allowPrivateAddresses takes CIDR ranges; bad entries fail at construction', () => {
    expect(() => openApiToolset({ spec: petstoreSpec, allowPrivateAddresses: ['127.0.0.0/8', '::1', 'fd00::/8'] })).not.toThrow();
    expect(() => openApiToolset({ spec: petstoreSpec, allowPrivateAddresses: ['intranet'] })).toThrow(
      /allowPrivateAddresses entry "intranet" is not an address or CIDR range/,
    );
  });
});

describe('arguments from the model', () => {
  it('a full URL or ../ in a path parameter stays inside its segment; "." and ".." are refused', async () => {
    const server = await start(petstoreApp(), '/v1');
    const toolset = openApiToolset({ spec: petstoreSpec, baseUrl: server.url, auth, allowPrivateAddresses: ['127.0.0.1'] });
    const { responses } = await runCalls(toolset, [
      { name: 'showPetById', args: { petId: 'http://169.254.169.254/latest' } },
      { name: 'showPetById', args: { petId: '../../admin?x=1#y' } },
      { name: 'showPetById', args: { petId: '..' } },
      { name: 'showPetById', args: { petId: '.' } },
      { name: 'showPetById', args: { petId: '%2e%2e' } },
    ]);
    expect(server.seen.map((r) => r.path + r.query)).toEqual([
      '/v1/pets/http%3A%2F%2F169.254.169.254%2Flatest',
      '/v1/pets/..%2F..%2Fadmin%3Fx%3D1%23y',
      '/v1/pets/%252e%252e',
    ]);
    expect(responses[2]!.response).toEqual({ error: 'Invalid arguments for tool "showPetById": the path parameter "petId" must not be ".."; give the value itself.' });
    expect(responses[3]!.response).toEqual({ error: 'Invalid arguments for tool "showPetById": the path parameter "petId" must not be "."; give the value itself.' });
  });

  it('CR/LF in a header parameter is refused before sending; in a cookie it is percent-encoded', async () => {
    const server = await start(ordersApp(), '/api');
    const toolset = openApiToolset({ spec: ordersSpec, baseUrl: server.url, allowPrivateAddresses: ['127.0.0.1'], requireConfirmation: false, operations: ['placeOrder'] });
    const body = { items: [{ sku: 'A', quantity: 1 }], payment: { kind: 'card', number: '4111111111111111' } };
    const { responses } = await runCalls(toolset, [
      { name: 'placeOrder', args: { shopId: 's', 'Idempotency-Key': 'k\r\nX-Admin: true', body } },
      { name: 'placeOrder', args: { shopId: 's', 'Idempotency-Key': 'k', session: 'x\r\nSet-Cookie: admin=1', body } },
    ]);
    expect(responses[0]!.response).toEqual({
      error: 'Invalid arguments for tool "placeOrder": the header parameter "Idempotency-Key" must not contain line breaks or NUL characters.',
    });
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]!.headers.cookie).toBe('session=x%0D%0ASet-Cookie%3A%20admin%3D1');
    expect(server.seen[0]!.headers['x-admin']).toBeUndefined();
  });

  it('__proto__ and constructor as parameter and property names are plain data, and nothing is polluted', async () => {
    const app = new Hono().post('/echo', async (c) => c.json({ query: new URL(c.req.url).search, body: await c.req.text() }));
    const server = await start(app);
    const spec = JSON.parse(`{
      "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
      "paths": {"/echo": {"post": {"operationId": "echo",
        "parameters": [{"name": "__proto__", "in": "query", "schema": {"type": "string"}},
                       {"name": "constructor", "in": "query", "schema": {"type": "string"}}],
        "requestBody": {"content": {"application/json": {"schema": {"type": "object",
          "properties": {"__proto__": {"type": "object", "properties": {"polluted": {"type": "boolean"}}}}}}}},
        "responses": {"200": {"description": "ok"}}}}}
    }`) as Record<string, unknown>;
    const toolset = openApiToolset({ spec, baseUrl: server.url, allowPrivateAddresses: ['127.0.0.1'], requireConfirmation: false });
    const [tool] = await listTools(toolset);
    const properties = tool!.declaration().parametersJsonSchema!.properties as object;
    expect(Object.keys(properties)).toEqual(['__proto__', 'constructor', 'body']);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    const args = JSON.parse('{"__proto__": "a", "constructor": "b", "body": {"__proto__": {"polluted": true}}}') as Record<string, unknown>;
    const { responses } = await runCalls(toolset, [{ name: 'echo', args }]);
    expect(responses[0]!.response).toMatchObject({ status: 200, body: { query: '?__proto__=a&constructor=b', body: '{"__proto__":{"polluted":true}}' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
