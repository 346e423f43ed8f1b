import { serve, type ServerType } from '@hono/node-server';
import { openApiToolset, type OpenApiToolset } from '@adkit/openapi-toolset';
import { Hono } from 'hono';

/** The pet shop's OpenAPI description: what `openApiToolset` turns into `list_pets` and `adopt_pet`. */
const PET_SHOP_SPEC = {
  openapi: '3.1.0',
  info: { title: 'Demo pet shop', version: '1.0.0' },
  security: [{ shop_key: [] }],
  paths: {
    '/pets': {
      get: {
        operationId: 'list_pets',
        summary: 'The pets waiting for a home.',
        parameters: [{ name: 'species', in: 'query', schema: { enum: ['cat', 'dog'] }, description: 'Only this species.' }],
        responses: { '200': { description: 'The pets' } },
      },
    },
    '/pets/{name}/adoption': {
      post: {
        operationId: 'adopt_pet',
        summary: 'Adopts a pet (asks the user first: it is a POST).',
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '201': { description: 'Adopted' }, '404': { description: 'No such pet' } },
      },
    },
  },
  components: { securitySchemes: { shop_key: { type: 'apiKey', in: 'header', name: 'X-Shop-Key' } } },
};

/** A pet shop REST API on 127.0.0.1 and the toolset that calls it. */
export interface PetShop {
  readonly toolset: OpenApiToolset;
  /** Stops the server and closes the toolset's connections. */
  close(): Promise<void>;
}

/**
 * Starts the demo's pet shop: a small REST API (Hono on 127.0.0.1, a free port) with an API key,
 * and `openApiToolset` on its OpenAPI description: the app holds the key (the model never sees
 * it), loopback is allowed for this one address, and `adopt_pet` (a POST) asks the user first.
 */
export async function startPetShop(): Promise<PetShop> {
  const key = 'demo-shop-key';
  const pets = new Map([
    ['Rex', { name: 'Rex', species: 'dog', age: 3 }],
    ['Tom', { name: 'Tom', species: 'cat', age: 2 }],
    ['Kitty', { name: 'Kitty', species: 'cat', age: 1 }],
  ]);
  const app = new Hono();
  app.use('*', async (c, next) => (c.req.header('x-shop-key') === key ? next() : c.json({ message: 'wrong shop key' }, 401)));
  app.get('/pets', (c) => {
    const species = c.req.query('species');
    return c.json([...pets.values()].filter((pet) => !species || pet.species === species));
  });
  app.post('/pets/:name/adoption', (c) => {
    const pet = pets.get(c.req.param('name'));
    if (!pet) return c.json({ message: `no pet named ${c.req.param('name')}` }, 404);
    pets.delete(pet.name);
    return c.json({ adopted: pet.name, species: pet.species }, 201);
  });
  const server = await new Promise<ServerType>((resolve) => {
    const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(started));
  });
  const { port } = server.address() as { port: number };
  const toolset = openApiToolset({
    spec: PET_SHOP_SPEC,
    name: 'pet_shop',
    baseUrl: `http://127.0.0.1:${port}`,
    auth: { shop_key: { apiKey: key } },
    allowPrivateAddresses: ['127.0.0.1'],
  });
  return {
    toolset,
    async close() {
      await toolset.close();
      await new Promise<void>((resolve) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      });
    },
  };
}
