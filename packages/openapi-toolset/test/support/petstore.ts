// The Petstore of the OpenAPI 3.0 examples (listPets, createPets, showPetById), with the
// security schemes the tests need, and a real Hono server implementing it on 127.0.0.1.
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';

export const petstoreSpec = {
  openapi: '3.0.3',
  info: { title: 'Swagger Petstore', version: '1.0.0', license: { name: 'MIT' } },
  servers: [{ url: 'http://petstore.swagger.io/v1' }],
  security: [{ api_key: [] }],
  paths: {
    '/pets': {
      get: {
        summary: 'List all pets',
        operationId: 'listPets',
        tags: ['pets'],
        parameters: [
          {
            name: 'limit',
            in: 'query',
            description: 'How many items to return at one time (max 100)',
            required: false,
            schema: { type: 'integer', maximum: 100, format: 'int32' },
          },
        ],
        responses: {
          '200': {
            description: 'A paged array of pets',
            headers: { 'x-next': { description: 'A link to the next page of responses', schema: { type: 'string' } } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pets' } } },
          },
          default: { description: 'unexpected error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
      post: {
        summary: 'Create a pet',
        operationId: 'createPets',
        tags: ['pets'],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } } },
        responses: {
          '201': { description: 'Null response' },
          default: { description: 'unexpected error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/pets/{petId}': {
      get: {
        summary: 'Info for a specific pet',
        operationId: 'showPetById',
        tags: ['pets'],
        parameters: [{ name: 'petId', in: 'path', required: true, description: 'The id of the pet to retrieve', schema: { type: 'string' } }],
        responses: {
          '200': { description: 'Expected response to a valid request', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
          default: { description: 'unexpected error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
      delete: {
        summary: 'Deletes a pet',
        operationId: 'deletePet',
        tags: ['pets'],
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '204': { description: 'Deleted' } },
      },
    },
    '/store/inventory': {
      get: {
        summary: 'Returns pet inventories by status',
        operationId: 'getInventory',
        tags: ['store'],
        security: [{ basic: [] }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', additionalProperties: { type: 'integer' } } } } } },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'integer', format: 'int64', readOnly: true }, name: { type: 'string' }, tag: { type: 'string', nullable: true } },
      },
      NewPet: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1 }, tag: { type: 'string', nullable: true } },
      },
      Pets: { type: 'array', maxItems: 100, items: { $ref: '#/components/schemas/Pet' } },
      Error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer', format: 'int32' }, message: { type: 'string' } } },
    },
    securitySchemes: {
      api_key: { type: 'apiKey', name: 'X-API-Key', in: 'header' },
      basic: { type: 'http', scheme: 'basic' },
    },
  },
} as const;

/** One request the server saw. */
export interface SeenRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string;
}

/** A running server: its base URL, what it saw, and `close()`. */
export interface RunningServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** Serves a Hono app on 127.0.0.1 on a free port, recording every request. */
export async function startServer(app: Hono, basePath = ''): Promise<RunningServer> {
  const seen: SeenRequest[] = [];
  const outer = new Hono();
  outer.use('*', async (c, next) => {
    const url = new URL(c.req.url);
    seen.push({
      method: c.req.method,
      path: url.pathname,
      query: url.search,
      headers: Object.fromEntries(c.req.raw.headers),
      body: c.req.method === 'GET' || c.req.method === 'HEAD' ? '' : await c.req.raw.clone().text(),
    });
    await next();
  });
  outer.route(basePath || '/', app);
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: outer.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** The Petstore as a real API: pets in memory, the API key and Basic credentials checked. */
export function petstoreApp(options: { apiKey?: string; basic?: { username: string; password: string } } = {}): Hono {
  const apiKey = options.apiKey ?? 'secret-key';
  const basic = options.basic ?? { username: 'ann', password: 'p:ss wörd' };
  const pets = new Map<number, { id: number; name: string; tag?: string | null }>([
    [1, { id: 1, name: 'Rex', tag: 'dog' }],
    [2, { id: 2, name: 'Tom', tag: 'cat' }],
  ]);
  let nextId = 3;
  const app = new Hono();
  app.use('/pets/*', async (c, next) => (c.req.header('x-api-key') === apiKey ? next() : c.json({ code: 401, message: 'missing or wrong X-API-Key' }, 401)));
  app.use('/pets', async (c, next) => (c.req.header('x-api-key') === apiKey ? next() : c.json({ code: 401, message: 'missing or wrong X-API-Key' }, 401)));
  app.get('/pets', (c) => {
    const limit = Number(c.req.query('limit') ?? 100);
    return c.json([...pets.values()].slice(0, limit), 200, { 'x-next': '/pets?page=2', 'set-cookie': 'session=should-not-leak' });
  });
  app.post('/pets', async (c) => {
    const body = (await c.req.json()) as { name?: unknown; tag?: unknown };
    if (typeof body.name !== 'string' || body.name.length === 0) return c.json({ code: 400, message: 'name is required' }, 400);
    const pet = { id: nextId++, name: body.name, tag: typeof body.tag === 'string' ? body.tag : null };
    pets.set(pet.id, pet);
    return c.json(pet, 201);
  });
  app.get('/pets/:petId', (c) => {
    const pet = pets.get(Number(c.req.param('petId')));
    return pet ? c.json(pet) : c.json({ code: 404, message: `no pet ${c.req.param('petId')}` }, 404);
  });
  app.delete('/pets/:petId', (c) => (pets.delete(Number(c.req.param('petId'))) ? c.body(null, 204) : c.json({ code: 404, message: 'no such pet' }, 404)));
  app.get('/store/inventory', (c) => {
    const expected = `Basic ${Buffer.from(`${basic.username}:${basic.password}`).toString('base64')}`;
    if (c.req.header('authorization') !== expected) return c.json({ code: 401, message: 'basic auth required' }, 401);
    return c.json({ available: pets.size });
  });
  return app;
}
