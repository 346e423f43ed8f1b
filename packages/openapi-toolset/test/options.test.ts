// Construction errors name the fix; names are valid and unique; app headers, API keys in the
// query and in cookies, form bodies.
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { openApiToolset, type OpenApiToolsetOptions } from '../src/index.js';
import { petstoreSpec, startServer, type RunningServer } from './support/petstore.js';
import { listTools, runCalls } from './support/run.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const spec = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  servers: [{ url: 'https://api.example.com/v2' }],
  paths,
  ...extra,
});
const ok = { '200': { description: 'ok' } };

describe('construction', () => {
  it.each<[string, Partial<OpenApiToolsetOptions>, string]>([
    ['no spec', { spec: undefined as never }, 'openApiToolset: spec must be the OpenAPI document, a file path or an http(s) URL.'],
    ['an array spec', { spec: [] as never }, 'openApiToolset: spec must be the OpenAPI document, a file path or an http(s) URL.'],
    ['a relative baseUrl', { baseUrl: '/v1' }, 'openApiToolset: baseUrl must be an absolute http(s) URL such as "https://api.example.com/v1", got "/v1".'],
    ['an ftp baseUrl', { baseUrl: 'ftp://example.com' }, 'openApiToolset: baseUrl must use http or https, got ftp:'],
    ['a prefix with a dash', { prefix: 'git-hub' }, 'openApiToolset: prefix must be letters, digits and "_" (at most 30, not starting with a digit), got "git-hub".'],
    ['a credential of no known shape', { auth: { api_key: { key: 'x' } as never } }, 'openApiToolset: auth["api_key"] must be {apiKey}, {token}, {username, password}, {oauth2: {clientId, clientSecret, redirectUri}} or a function (ctx) => a static one.'],
    ['requireConfirmation "yes"', { requireConfirmation: 'yes' as never }, 'openApiToolset: requireConfirmation must be true, false or a function (toolName, args, ctx, operation) => boolean.'],
    ['a header with a line break', { headers: { 'X-App': 'a\r\nX-Evil: 1' } }, 'openApiToolset: headers["X-App"] must be a string without line breaks.'],
    ['timeoutMs 0', { timeoutMs: 0 }, 'openApiToolset: timeoutMs must be a positive number, got 0.'],
    ['maxRedirects -1', { maxRedirects: -1 }, 'openApiToolset: maxRedirects must be a whole number of at least 0, got -1.'],
    ['an unknown method', { operations: { methods: ['fetch'] } }, 'openApiToolset: operations.methods has "fetch", which is not an HTTP method (get, put, post, delete, options, head, patch, trace).'],
  ])('%s is refused with the fix', (_case, options, message) => {
    expect(() => openApiToolset({ spec: petstoreSpec, ...options })).toThrow(message);
  });

  it('a description without servers and no baseUrl fails at listing, naming the fix', async () => {
    const toolset = openApiToolset({ spec: { ...spec({ '/a': { get: { responses: ok } } }), servers: [] } });
    await expect(listTools(toolset)).rejects.toThrow('openApiToolset: the spec has no servers entry for GET /a; pass baseUrl.');
  });
});

describe('names', () => {
  it('without operationId: method and path; invalid characters replaced; clashes get _2; prefixed names stay within 64', async () => {
    const long = `op${'x'.repeat(80)}`;
    const tools = await listTools(
      openApiToolset({
        spec: spec({
          '/pets/{petId}/toys': { get: { responses: ok }, post: { operationId: 'add toy!', responses: ok } },
          '/a': { get: { operationId: 'same', responses: ok }, put: { operationId: 'same', responses: ok } },
          '/': { get: { responses: ok } },
          '/long': { get: { operationId: long, responses: ok } },
        }),
        prefix: 'shop',
        requireConfirmation: false,
      }),
    );
    const names = tools.map((t) => t.name);
    expect(names.slice(0, 5)).toEqual(['shop_get_pets_petId_toys', 'shop_add_toy_', 'shop_same', 'shop_same_2', 'shop_get']);
    expect(names[5]).toHaveLength(64);
    expect(names[5]).toMatch(/^shop_opx+_[0-9a-f]{8}$/);
    expect(tools[1]!.description).toBe('POST /pets/{petId}/toys');
  });
});

describe('requests', () => {
  const echo = () =>
    new Hono().all('*', async (c) => c.json({ path: new URL(c.req.url).pathname, query: new URL(c.req.url).search, cookie: c.req.header('cookie') ?? null, app: c.req.header('x-app') ?? null, type: c.req.header('content-type') ?? null, body: c.req.method === 'GET' ? null : await c.req.text() }));

  it('app headers (fixed or per run) are sent and never declared; a spec parameter of that name is hidden', async () => {
    server = await startServer(echo());
    const paths = { '/h': { get: { operationId: 'h', parameters: [{ name: 'X-App', in: 'header', schema: { type: 'string' } }, { name: 'q', in: 'query', schema: { type: 'string' } }], responses: ok } } };
    for (const headers of [{ 'X-App': 'fixed' }, (ctx: { userId: string }) => ({ 'X-App': `for-${ctx.userId}` })]) {
      const toolset = openApiToolset({ spec: spec(paths), baseUrl: server.url, allowPrivateAddresses: ['127.0.0.1'], headers });
      const [tool] = await listTools(toolset);
      const declared = Object.keys(tool!.declaration().parametersJsonSchema!.properties as object);
      const { responses } = await runCalls(toolset, [{ name: 'h', args: { q: '1' } }]);
      expect((responses[0]!.response as { body: { app: string } }).body.app).toBe(typeof headers === 'function' ? 'for-u1' : 'fixed');
      // A function's header names are not known at listing: the spec's X-App stays a parameter.
      expect(declared).toEqual(typeof headers === 'function' ? ['X-App', 'q'] : ['q']);
    }
  });

  it("an API key in the query and one in a cookie are sent; the request label in errors has no query (the API's own body is quoted as it came)", async () => {
    server = await startServer(new Hono().all('*', async (c) => c.json({ query: new URL(c.req.url).search, cookie: c.req.header('cookie') ?? null }, c.req.path === '/missing' ? 404 : 200)));
    const toolset = openApiToolset({
      spec: spec(
        { '/q': { get: { operationId: 'q', security: [{ query_key: [] }], responses: ok } }, '/missing': { get: { operationId: 'missing', security: [{ query_key: [], cookie_key: [] }], responses: ok } }, '/c': { get: { operationId: 'c', security: [{ cookie_key: [] }], responses: ok } } },
        { components: { securitySchemes: { query_key: { type: 'apiKey', in: 'query', name: 'api_key' }, cookie_key: { type: 'apiKey', in: 'cookie', name: 'sid' } } } },
      ),
      baseUrl: server.url,
      allowPrivateAddresses: ['127.0.0.1'],
      auth: { query_key: { apiKey: 'qk-123' }, cookie_key: { apiKey: 'ck 456' } },
    });
    const { responses } = await runCalls(toolset, [
      { name: 'q', args: {} },
      { name: 'c', args: {} },
      { name: 'missing', args: {} },
    ]);
    expect((responses[0]!.response as { body: unknown }).body).toEqual({ query: '?api_key=qk-123', cookie: null });
    expect((responses[1]!.response as { body: unknown }).body).toEqual({ query: '', cookie: 'sid=ck%20456' });
    expect(responses[2]!.response!.error).toBe(
      'GET /missing answered HTTP 404: {"query":"?api_key=qk-123","cookie":"sid=ck%20456"}. Check the identifiers in the arguments.',
    );
  });

  it('a spec read from a URL: a relative server URL is resolved against it', async () => {
    const description = spec({ '/ping': { get: { operationId: 'ping', responses: ok } } }, { servers: [{ url: '/api/v3' }] });
    server = await startServer(new Hono().get('/specs/openapi.json', (c) => c.json(description)).get('/api/v3/ping', (c) => c.json({ pong: true })));
    const toolset = openApiToolset({ spec: `${server.url}/specs/openapi.json`, allowPrivateAddresses: ['127.0.0.1'] });
    const { responses } = await runCalls(toolset, [{ name: 'ping', args: {} }]);
    expect(responses[0]!.response).toMatchObject({ status: 200, body: { pong: true } });
  });

  it('a form body is sent url-encoded; a text body as it is', async () => {
    server = await startServer(echo());
    const body = (type: string, schema: unknown) => ({ required: true, content: { [type]: { schema } } });
    const toolset = openApiToolset({
      spec: spec({
        '/form': { post: { operationId: 'form', requestBody: body('application/x-www-form-urlencoded', { type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } }), responses: ok } },
        '/text': { post: { operationId: 'text', requestBody: body('text/plain', { type: 'string' }), responses: ok } },
      }),
      baseUrl: server.url,
      allowPrivateAddresses: ['127.0.0.1'],
      requireConfirmation: false,
    });
    const { responses } = await runCalls(toolset, [
      { name: 'form', args: { body: { name: 'a b', tags: ['x', 'y'] } } },
      { name: 'text', args: { body: 'hello\nworld' } },
    ]);
    expect(responses.map((r) => (r.response as { body: { type: string; body: string } }).body)).toMatchObject([
      { type: 'application/x-www-form-urlencoded', body: 'name=a+b&tags=x&tags=y' },
      { type: 'text/plain', body: 'hello\nworld' },
    ]);
  });
});
