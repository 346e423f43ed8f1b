// The Petstore 3.0 description against a real Hono server on 127.0.0.1, called by an agent
// (InMemoryRunner + ScriptedModel) through the toolset, end to end.
import { createConfirmationReply, pendingConfirmations } from '@adkit/confirmation';
import { InMemoryRunner, LlmAgent, createUserContent, getFunctionResponses } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openApiToolset, type OpenApiTool } from '../src/index.js';
import { petstoreApp, petstoreSpec, startServer, type RunningServer } from './support/petstore.js';
import { listTools, listingContext, runCalls, send } from './support/run.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function petstore(options: Partial<Parameters<typeof openApiToolset>[0]> = {}) {
  server = await startServer(petstoreApp(), '/v1');
  return openApiToolset({
    spec: petstoreSpec,
    baseUrl: server.url,
    allowPrivateAddresses: ['127.0.0.1'],
    auth: { api_key: { apiKey: 'secret-key' }, basic: { username: 'ann', password: 'p:ss wörd' } },
    ...options,
  });
}

describe('the Petstore (OpenAPI 3.0) end to end', () => {
  it('declares one tool per operation, named by operationId, with its parameters and body in one object schema', async () => {
    const tools = await listTools(await petstore());
    expect(tools.map((tool) => tool.name)).toEqual(['listPets', 'createPets', 'showPetById', 'deletePet', 'getInventory']);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.declaration()]));
    expect(byName.listPets).toEqual({
      name: 'listPets',
      description: 'List all pets',
      parametersJsonSchema: {
        type: 'object',
        properties: {
          limit: { type: 'integer', maximum: 100, format: 'int32', description: 'How many items to return at one time (max 100) In query.' },
        },
        additionalProperties: false,
      },
    });
    expect(byName.createPets!.parametersJsonSchema).toEqual({
      type: 'object',
      properties: {
        body: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', minLength: 1 }, tag: { type: ['string', 'null'] } },
          description: 'The request body, sent as application/json.',
        },
      },
      required: ['body'],
      additionalProperties: false,
    });
    expect(byName.showPetById!.parametersJsonSchema).toMatchObject({ required: ['petId'], properties: { petId: { type: 'string' } } });
    expect(tools[0]!.operation).toEqual({ method: 'get', path: '/pets', operationId: 'listPets', tags: ['pets'], summary: 'List all pets', deprecated: false });
  });

  it('a model lists pets and reads one: {status, headers (safe subset), body}, the API key sent by the app', async () => {
    const { responses, model } = await runCalls(await petstore(), [
      { name: 'listPets', args: { limit: '1' } },
      { name: 'showPetById', args: { petId: '2' } },
    ]);
    expect(responses.map((r) => r.response)).toEqual([
      { status: 200, headers: { 'content-type': 'application/json', 'content-length': '35' }, body: [{ id: 1, name: 'Rex', tag: 'dog' }] },
      { status: 200, headers: { 'content-type': 'application/json', 'content-length': '33' }, body: { id: 2, name: 'Tom', tag: 'cat' } },
    ]);
    expect(server!.seen.map((r) => `${r.method} ${r.path}${r.query}`)).toEqual(['GET /v1/pets?limit=1', 'GET /v1/pets/2']);
    expect(server!.seen[0]!.headers['x-api-key']).toBe('secret-key');
    // The key never reaches the model.
    expect(JSON.stringify(model.requests)).not.toContain('secret-key');
  });

  it('a 404 becomes an error the model can act on, naming the status, what the API said and what to do', async () => {
    const { responses } = await runCalls(await petstore(), [{ name: 'showPetById', args: { petId: '99' } }]);
    expect(responses[0]!.response).toEqual({
      error: 'GET /v1/pets/99 answered HTTP 404: {"code":404,"message":"no pet 99"}. Check the identifiers in the arguments.',
    });
  });

  it('HC-2: createPets (POST) asks the user first by default; approved, it creates the pet', async () => {
    const toolset = await petstore();
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'createPets', args: { body: { name: 'Kitty', tag: 'cat' } } }]),
      textResponse('Waiting for your approval.'),
      textResponse('Created.'),
    ]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'assistant', model, toolsets: [toolset] }), autoCreateSession: true });
    await send(runner, createUserContent('add Kitty'));
    expect(server!.seen).toEqual([]);
    const session = await runner.sessionService.getSession({ appName: runner.appName, userId: 'u1', sessionId: 's1' });
    const [pending] = pendingConfirmations(session!.events);
    expect(pending!.hint).toBe('Approve "createPets" with {"body":{"name":"Kitty","tag":"cat"}}?');
    const events = await send(runner, createConfirmationReply(pending!, { confirmed: true }));
    const response = events.flatMap((e) => getFunctionResponses(e)).find((r) => r.name === 'createPets');
    expect(response!.response).toMatchObject({ status: 201, body: { id: 3, name: 'Kitty', tag: 'cat' } });
    expect(server!.seen.map((r) => [r.method, r.path, r.body, r.headers['content-type']])).toEqual([['POST', '/v1/pets', '{"name":"Kitty","tag":"cat"}', 'application/json']]);
  });

  it('HC-2: a rejected DELETE never reaches the server', async () => {
    const toolset = await petstore();
    const model = new ScriptedModel([functionCallResponse([{ name: 'deletePet', args: { petId: '1' } }]), textResponse('asked'), textResponse('ok')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'assistant', model, toolsets: [toolset] }), autoCreateSession: true });
    await send(runner, createUserContent('delete Rex'));
    const session = await runner.sessionService.getSession({ appName: runner.appName, userId: 'u1', sessionId: 's1' });
    const [pending] = pendingConfirmations(session!.events);
    const events = await send(runner, createConfirmationReply(pending!, { confirmed: false }));
    expect(events.flatMap((e) => getFunctionResponses(e)).find((r) => r.name === 'deletePet')!.response).toEqual({ error: 'error tool "deletePet" call is rejected' });
    expect(server!.seen).toEqual([]);
  });

  it('requireConfirmation: false lets mutating calls through; a function decides per call', async () => {
    const decided: string[] = [];
    const toolset = await petstore({
      requireConfirmation: (toolName, args, _ctx, operation) => {
        decided.push(`${toolName} ${operation.method} ${JSON.stringify(args)}`);
        return operation.method === 'delete';
      },
    });
    const { responses } = await runCalls(toolset, [
      { name: 'createPets', args: { body: { name: 'Nemo' } } },
      { name: 'deletePet', args: { petId: '1' } },
    ]);
    expect(responses.map((r) => r.response)).toEqual([
      expect.objectContaining({ status: 201, body: { id: 3, name: 'Nemo', tag: null } }),
      { error: 'error tool "deletePet" requires confirmation, please approve or reject' },
    ]);
    expect(decided).toEqual(['createPets post {"body":{"name":"Nemo"}}', 'deletePet delete {"petId":"1"}']);
  });

  it('invalid arguments: each problem and the expected fields; nothing is sent', async () => {
    const { responses } = await runCalls(await petstore({ requireConfirmation: false }), [{ name: 'createPets', args: { body: { tag: 'x' } } }]);
    expect(responses[0]!.response).toEqual({
      error:
        'Invalid arguments for tool "createPets": body.name: is required. Expected fields: body (object, required). Correct the arguments and call the tool again.',
    });
    expect(server!.seen).toEqual([]);
  });

  it('filters by id, tag and method, and a prefix', async () => {
    server = await startServer(petstoreApp(), '/v1');
    const names = async (operations: Parameters<typeof openApiToolset>[0]['operations'], prefix?: string) =>
      (await listTools(openApiToolset({ spec: petstoreSpec, baseUrl: server!.url, operations, ...(prefix ? { prefix } : {}) }))).map((t) => t.name);
    expect(await names(['showPetById', 'listPets'])).toEqual(['listPets', 'showPetById']);
    expect(await names({ tags: ['store'] })).toEqual(['getInventory']);
    expect(await names({ methods: ['GET'], tags: ['pets'] })).toEqual(['listPets', 'showPetById']);
    expect(await names((op) => op.method === 'delete')).toEqual(['deletePet']);
    expect(await names({ ids: ['listPets'] }, 'pets')).toEqual(['pets_listPets']);
  });

  it('PK-5: toolFilter decides per listing what the model sees: names with or without the prefix, or a predicate of the run', async () => {
    server = await startServer(petstoreApp(), '/v1');
    const list = async (toolFilter: Parameters<typeof openApiToolset>[0]['toolFilter'], ctx = listingContext()) =>
      ((await openApiToolset({ spec: petstoreSpec, baseUrl: server!.url, prefix: 'pets', toolFilter }).tools(ctx)) as { name: string }[]).map((t) => t.name);
    expect(await list(['listPets', 'pets_showPetById'])).toEqual(['pets_listPets', 'pets_showPetById']);
    const readOnlyFor = (ctx: { userId: string }, tool: { name: string }) => ctx.userId === 'admin' || (tool as OpenApiTool).operation.method === 'get';
    expect(await list(readOnlyFor)).toEqual(['pets_listPets', 'pets_showPetById', 'pets_getInventory']);
    expect(await list(readOnlyFor, { ...listingContext(), userId: 'admin' })).toHaveLength(5);
    const failing = openApiToolset({ spec: petstoreSpec, baseUrl: server.url, toolFilter: () => { throw new Error('no permissions service'); } });
    await expect(failing.tools(listingContext())).rejects.toThrow('toolset "openapi": the tool filter failed for tool "listPets": no permissions service');
  });
});
