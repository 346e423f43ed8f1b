// An OpenAPI 3.1 description using what 3.1 added (type arrays with null, const, numeric
// exclusiveMinimum, $ref with sibling keywords, webhooks, a oneOf body) and every parameter
// location, with a real Hono server that echoes what it received.
import { Hono } from 'hono';

export const ordersSpec = {
  openapi: '3.1.0',
  info: { title: 'Orders', version: '2.0.0' },
  jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
  servers: [{ url: 'http://{host}/api', variables: { host: { default: 'orders.example.com' } } }],
  webhooks: { orderShipped: { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } }, responses: { '200': { description: 'ok' } } } } },
  paths: {
    '/shops/{shopId}/orders': {
      parameters: [{ name: 'shopId', in: 'path', required: true, schema: { type: 'string' } }],
      post: {
        operationId: 'placeOrder',
        summary: 'Place an order',
        description: 'Places an order paid by card or by transfer.',
        parameters: [
          { name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['items', 'payment'],
                properties: {
                  items: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/Item' } },
                  note: { type: ['string', 'null'] },
                  payment: {
                    oneOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Transfer' }],
                    discriminator: { propertyName: 'kind' },
                  },
                },
              },
            },
          },
        },
        responses: { '201': { description: 'placed' } },
      },
      get: {
        operationId: 'listOrders',
        parameters: [
          { name: 'status', in: 'query', schema: { type: 'array', items: { enum: ['open', 'shipped'] } }, explode: true },
          { name: 'filter', in: 'query', style: 'deepObject', schema: { type: 'object', properties: { minTotal: { type: 'number' } } } },
          { name: 'where', in: 'query', content: { 'application/json': { schema: { type: 'object', properties: { city: { type: 'string' } } } } } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: {
    schemas: {
      Item: {
        type: 'object',
        required: ['sku', 'quantity'],
        properties: { sku: { type: 'string', examples: ['A-1'] }, quantity: { type: 'integer', exclusiveMinimum: 0 } },
      },
      Card: { type: 'object', required: ['kind', 'number'], properties: { kind: { const: 'card' }, number: { type: 'string', pattern: '^[0-9]{12,19}$' } } },
      Transfer: { type: 'object', required: ['kind', 'iban'], properties: { kind: { const: 'transfer' }, iban: { $ref: '#/components/schemas/Iban', description: 'The payer\'s IBAN.' } } },
      Iban: { type: 'string', minLength: 15 },
      Order: { type: 'object', properties: { id: { type: 'string' } } },
    },
  },
} as const;

/** Echoes the request: path, query, the two headers and the cookie, and the parsed body. */
export function ordersApp(): Hono {
  const app = new Hono();
  app.post('/shops/:shopId/orders', async (c) =>
    c.json(
      {
        shopId: c.req.param('shopId'),
        idempotencyKey: c.req.header('idempotency-key'),
        cookie: c.req.header('cookie') ?? null,
        order: await c.req.json(),
      },
      201,
    ),
  );
  app.get('/shops/:shopId/orders', (c) => c.json({ query: new URL(c.req.url).search }));
  return app;
}
