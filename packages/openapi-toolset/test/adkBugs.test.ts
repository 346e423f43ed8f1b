// ADK's OpenAPI toolset bugs, each pinned so it cannot come back here.
import { afterEach, describe, expect, it } from 'vitest';
import { openApiToolset } from '../src/index.js';
import { ordersApp, ordersSpec } from './support/orders31.js';
import { petstoreApp, petstoreSpec, startServer, type RunningServer } from './support/petstore.js';
import { listTools, runCalls } from './support/run.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("ADK's OpenAPI bugs", () => {
  it('adk-python #6991: a oneOf request body keeps its branches (not an empty object) and the chosen branch is sent', async () => {
    server = await startServer(ordersApp(), '/api');
    const toolset = openApiToolset({ spec: ordersSpec, baseUrl: server.url, allowPrivateAddresses: ['127.0.0.1'], requireConfirmation: false, operations: ['placeOrder'] });
    const [tool] = await listTools(toolset);
    const body = (tool!.declaration().parametersJsonSchema!.properties as Record<string, { properties: Record<string, { oneOf?: unknown[] }> }>).body!;
    expect(body.properties.payment!.oneOf).toHaveLength(2);
    const payment = { kind: 'card', number: '4111111111111111' };
    const { responses } = await runCalls(toolset, [
      { name: 'placeOrder', args: { shopId: 's', 'Idempotency-Key': 'k', body: { items: [{ sku: 'A', quantity: 1 }], payment } } },
    ]);
    expect((responses[0]!.response as { body: { order: unknown } }).body.order).toEqual({ items: [{ sku: 'A', quantity: 1 }], payment });
    // A payment matching neither branch is refused before anything is sent.
    const before = server.seen.length;
    const refused = await runCalls(toolset, [
      { name: 'placeOrder', args: { shopId: 's', 'Idempotency-Key': 'k', body: { items: [{ sku: 'A', quantity: 1 }], payment: { kind: 'cash' } } } },
    ]);
    expect(String(refused.responses[0]!.response!.error)).toMatch(/^Invalid arguments for tool "placeOrder": body\.payment/);
    expect(server.seen.length).toBe(before);
  });

  it('adk-python #6503: required fields of the body stay required (and the body itself when the spec says so)', async () => {
    server = await startServer(ordersApp(), '/api');
    const toolset = openApiToolset({ spec: ordersSpec, baseUrl: server.url, allowPrivateAddresses: ['127.0.0.1'], requireConfirmation: false, operations: ['placeOrder'] });
    const [tool] = await listTools(toolset);
    const schema = tool!.declaration().parametersJsonSchema! as { required: string[]; properties: { body: { required: string[]; properties: { items: { items: { required: string[] } } } } } };
    expect(schema.required).toContain('body');
    expect(schema.properties.body.required).toEqual(['items', 'payment']);
    expect(schema.properties.body.properties.items.items.required).toEqual(['sku', 'quantity']);
    const { responses } = await runCalls(toolset, [{ name: 'placeOrder', args: { shopId: 's', 'Idempotency-Key': 'k', body: { items: [{ sku: 'A' }] } } }]);
    expect(responses[0]!.response!.error).toBe(
      'Invalid arguments for tool "placeOrder": body.payment: is required; body.items[0].quantity: is required. Expected fields: shopId (string, required), Idempotency-Key (string, required), session (string, optional), body (object, required). Correct the arguments and call the tool again.',
    );
    expect(server.seen).toEqual([]);
  });

  it('adk-python #5492: HTTP Basic credentials are sent (a password with ":" and non-ASCII characters)', async () => {
    server = await startServer(petstoreApp(), '/v1');
    const toolset = openApiToolset({
      spec: petstoreSpec,
      baseUrl: server.url,
      allowPrivateAddresses: ['127.0.0.1'],
      auth: { basic: { username: 'ann', password: 'p:ss wörd' } },
    });
    const { responses } = await runCalls(toolset, [{ name: 'getInventory', args: {} }]);
    expect(responses[0]!.response).toMatchObject({ status: 200, body: { available: 2 } });
    expect(server.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('ann:p:ss wörd').toString('base64')}`);
  });

  it('adk-python #1192: the auth parameter never reaches the model, and a model that sends one anyway does not set it', async () => {
    server = await startServer(petstoreApp(), '/v1');
    // The spec also declares the key header and Authorization as parameters, as many specs do.
    const spec = structuredClone(petstoreSpec) as unknown as { paths: Record<string, Record<string, { parameters?: unknown[] }>> };
    spec.paths['/pets']!.get!.parameters!.push(
      { name: 'X-API-Key', in: 'header', required: true, schema: { type: 'string' } },
      { name: 'Authorization', in: 'header', schema: { type: 'string' } },
    );
    const toolset = openApiToolset({ spec, baseUrl: server.url, allowPrivateAddresses: ['127.0.0.1'], auth: { api_key: { apiKey: 'secret-key' } } });
    const listPets = (await listTools(toolset)).find((tool) => tool.name === 'listPets')!;
    expect(Object.keys(listPets.declaration().parametersJsonSchema!.properties as object)).toEqual(['limit']);
    const { responses } = await runCalls(toolset, [
      { name: 'listPets', args: { 'X-API-Key': 'model-made', Authorization: 'Bearer forged' } },
      { name: 'listPets', args: {} },
    ]);
    expect(responses.map((r) => r.response)).toEqual([
      {
        error:
          'Invalid arguments for tool "listPets": X-API-Key: is not allowed; Authorization: is not allowed. Expected fields: limit (integer, optional). Correct the arguments and call the tool again.',
      },
      expect.objectContaining({ status: 200 }),
    ]);
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]!.headers['x-api-key']).toBe('secret-key');
    expect(server.seen[0]!.headers.authorization).toBeUndefined();
  });

  it('a scheme without a credential: the model is told the app must supply it, and nothing is sent', async () => {
    server = await startServer(petstoreApp(), '/v1');
    const toolset = openApiToolset({ spec: petstoreSpec, baseUrl: server.url, allowPrivateAddresses: ['127.0.0.1'] });
    const { responses } = await runCalls(toolset, [{ name: 'listPets', args: {} }]);
    expect(responses[0]!.response).toEqual({
      error: 'Tool "listPets" cannot call the API: no credential for the security scheme "api_key". The app must supply it; do not retry.',
    });
    expect(server.seen).toEqual([]);
  });

  it('credentials per run from ctx.context (a function), e.g. per user', async () => {
    server = await startServer(petstoreApp({ apiKey: 'key-of-u1' }), '/v1');
    const toolset = openApiToolset({
      spec: petstoreSpec,
      baseUrl: server.url,
      allowPrivateAddresses: ['127.0.0.1'],
      auth: { api_key: (ctx) => ({ apiKey: `key-of-${ctx.userId}` }) },
    });
    const { responses } = await runCalls(toolset, [{ name: 'listPets', args: {} }]);
    expect(responses[0]!.response).toMatchObject({ status: 200 });
  });
});
