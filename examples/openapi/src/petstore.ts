// A small Petstore API on 127.0.0.1 that serves its own OpenAPI description, so the example runs
// offline. In an app, `spec` is the API's published description and `baseUrl` its address.
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';

const spec = {
  openapi: '3.0.3',
  info: { title: 'Petstore', version: '1.0.0' },
  security: [{ api_key: [] }],
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        summary: 'List all pets',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } }],
        responses: { '200': { description: 'The pets' } },
      },
      post: {
        operationId: 'createPet',
        summary: 'Create a pet',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
        },
        responses: { '201': { description: 'Created' } },
      },
    },
  },
  components: { securitySchemes: { api_key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
};

/** Starts the Petstore; resolves to its base URL, its description's URL and `close()`. */
export async function startPetstore(apiKey: string): Promise<{ url: string; specUrl: string; close(): Promise<void> }> {
  const pets = [
    { id: 1, name: 'Rex' },
    { id: 2, name: 'Tom' },
    { id: 3, name: 'Kitty' },
  ];
  const app = new Hono();
  app.get('/openapi.json', (c) => c.json(spec));
  app.use('/v1/*', async (c, next) => (c.req.header('x-api-key') === apiKey ? next() : c.json({ message: 'wrong API key' }, 401)));
  app.get('/v1/pets', (c) => c.json(pets.slice(0, Number(c.req.query('limit') ?? 100))));
  app.post('/v1/pets', async (c) => {
    const pet = { id: pets.length + 1, name: String(((await c.req.json()) as { name: unknown }).name) };
    pets.push(pet);
    return c.json(pet, 201);
  });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    specUrl: `http://127.0.0.1:${port}/openapi.json`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
