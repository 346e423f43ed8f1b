// OpenAPI 3.1 against a real server: the 3.1 keywords reach the model as JSON Schema, every
// parameter location is sent the way the spec's style says.
import { afterEach, describe, expect, it } from 'vitest';
import { openApiToolset } from '../src/index.js';
import { ordersApp, ordersSpec } from './support/orders31.js';
import { startServer, type RunningServer } from './support/petstore.js';
import { listTools, runCalls } from './support/run.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function orders() {
  server = await startServer(ordersApp(), '/api');
  return openApiToolset({ spec: ordersSpec, baseUrl: server.url, allowPrivateAddresses: ['127.0.0.1'], requireConfirmation: false });
}

describe('OpenAPI 3.1', () => {
  it('declares 3.1 schemas as JSON Schema: type arrays, const, numeric exclusiveMinimum, $ref siblings, the oneOf body whole', async () => {
    const place = (await listTools(await orders())).find((tool) => tool.name === 'placeOrder');
    expect(place!.name).toBe('placeOrder');
    expect(place!.description).toBe('Place an order\n\nPlaces an order paid by card or by transfer.');
    const schema = place!.declaration().parametersJsonSchema!;
    expect(Object.keys(schema.properties as object)).toEqual(['shopId', 'Idempotency-Key', 'session', 'body']);
    expect(schema.required).toEqual(['shopId', 'Idempotency-Key', 'body']);
    const body = (schema.properties as Record<string, Record<string, unknown>>).body!;
    expect(body).toEqual({
      type: 'object',
      required: ['items', 'payment'],
      description: 'The request body, sent as application/json.',
      properties: {
        items: {
          type: 'array',
          minItems: 1,
          items: { type: 'object', required: ['sku', 'quantity'], properties: { sku: { type: 'string' }, quantity: { type: 'integer', exclusiveMinimum: 0 } } },
        },
        note: { type: ['string', 'null'] },
        payment: {
          oneOf: [
            { type: 'object', required: ['kind', 'number'], properties: { kind: { const: 'card' }, number: { type: 'string', pattern: '^[0-9]{12,19}$' } } },
            { type: 'object', required: ['kind', 'iban'], properties: { kind: { const: 'transfer' }, iban: { type: 'string', minLength: 15, description: "The payer's IBAN." } } },
          ],
        },
      },
    });
  });

  it('a call sends path, header, cookie and JSON body; the server variable default is not used when the app gives baseUrl', async () => {
    const { responses } = await runCalls(await orders(), [
      {
        name: 'placeOrder',
        args: {
          shopId: 'shop 1/2',
          'Idempotency-Key': 'k-1',
          session: 'a b;c',
          body: { items: [{ sku: 'A-1', quantity: 2 }], note: null, payment: { kind: 'transfer', iban: 'DE89370400440532013000' } },
        },
      },
    ]);
    expect(responses[0]!.response).toMatchObject({
      status: 201,
      body: {
        shopId: 'shop 1/2',
        idempotencyKey: 'k-1',
        cookie: 'session=a%20b%3Bc',
        order: { items: [{ sku: 'A-1', quantity: 2 }], note: null, payment: { kind: 'transfer', iban: 'DE89370400440532013000' } },
      },
    });
    expect(server!.seen[0]!.path).toBe('/api/shops/shop%201%2F2/orders');
  });

  it('query styles: exploded arrays, deepObject, a JSON content parameter', async () => {
    const { responses } = await runCalls(await orders(), [
      { name: 'listOrders', args: { shopId: 's', status: ['open', 'shipped'], filter: { minTotal: 10 }, where: { city: 'Oslo' } } },
    ]);
    expect(responses[0]!.response).toMatchObject({
      body: { query: '?status=open&status=shipped&filter%5BminTotal%5D=10&where=%7B%22city%22%3A%22Oslo%22%7D' },
    });
  });

  it('path styles: simple arrays comma-joined, label and matrix (exploded too); each value its own encoded piece', async () => {
    const { Hono } = await import('hono');
    server = await startServer(new Hono().get('*', (c) => c.json({ path: new URL(c.req.url).pathname })));
    const param = (name: string, style?: string, explode?: boolean) => ({ name, in: 'path', required: true, schema: { type: 'array', items: { type: 'string' } }, ...(style ? { style } : {}), ...(explode ? { explode } : {}) });
    const toolset = openApiToolset({
      spec: {
        openapi: '3.1.0',
        info: { title: 'styles', version: '1' },
        paths: { '/s/{a}/l/{b}/m/{c}/e/{d}': { get: { operationId: 'styles', parameters: [param('a'), param('b', 'label'), param('c', 'matrix'), param('d', 'matrix', true)], responses: { '200': { description: 'ok' } } } } },
      },
      baseUrl: server.url,
      allowPrivateAddresses: ['127.0.0.1'],
    });
    const { responses } = await runCalls(toolset, [{ name: 'styles', args: { a: ['x', 'y/z'], b: ['1', '2'], c: ['p', 'q'], d: ['r', 's'] } }]);
    expect((responses[0]!.response as { body: { path: string } }).body.path).toBe('/s/x,y%2Fz/l/.1,2/m/;c=p,q/e/;d=r;d=s');
  });

  it('without baseUrl the spec server is used, its variables at their defaults (and refused: not on the allow list)', async () => {
    const toolset = openApiToolset({ spec: ordersSpec, requireConfirmation: false, operations: ['listOrders'] });
    const { responses } = await runCalls(toolset, [{ name: 'listOrders', args: { shopId: 's' } }]);
    // orders.example.com does not resolve here; the message says so and nothing else is tried.
    expect(String(responses[0]!.response!.error)).toMatch(/^Tool "listOrders" could not call GET \/api\/shops\/s\/orders: the host "orders\.example\.com" could not be resolved/);
  });
});
