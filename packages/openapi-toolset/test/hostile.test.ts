// Hostile descriptions and servers: $ref cycles, a 50 MB description, a 1 GB answer, a server
// that never answers, Swagger 2.0, descriptions over the size budget.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { OpenApiSpecError, openApiToolset } from '../src/index.js';
import { petstoreSpec, startServer, type RunningServer } from './support/petstore.js';
import { listTools, listingContext, runCalls } from './support/run.js';

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const dir = mkdtempSync(join(tmpdir(), 'openapi-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(app: Hono) {
  const server = await startServer(app);
  servers.push(server);
  return server;
}

function echoApp() {
  return new Hono().post('/tree', async (c) => c.json(await c.req.json()));
}

const cyclicSpec = {
  openapi: '3.1.0',
  info: { title: 'cycles', version: '1' },
  paths: {
    '/tree': {
      post: {
        operationId: 'saveTree',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: {
    schemas: {
      Node: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } }, owner: { $ref: '#/components/schemas/Person' } } },
      Person: { type: 'object', properties: { name: { type: 'string' }, manages: { $ref: '#/components/schemas/Node' } } },
    },
  },
};

describe('hostile descriptions', () => {
  it('$ref cycles (direct and through another schema) are cut, the tool still lists, and deep data is sent whole', async () => {
    const server = await start(echoApp());
    const toolset = openApiToolset({ spec: cyclicSpec, baseUrl: server.url, allowPrivateAddresses: ['127.0.0.1'], requireConfirmation: false });
    const [tool] = await listTools(toolset);
    const body = (tool!.declaration().parametersJsonSchema!.properties as Record<string, Record<string, Record<string, Record<string, unknown>>>>).body!;
    expect(body.properties!.children).toEqual({ type: 'array', items: { type: 'object', description: 'Part of a recursive structure: given as JSON, checked by the server.' } });
    expect((body.properties!.owner!.properties as Record<string, unknown>).manages).toEqual({
      type: 'object',
      description: 'Part of a recursive structure: given as JSON, checked by the server.',
    });
    expect(() => JSON.stringify(tool!.declaration())).not.toThrow();
    const tree = { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] };
    const { responses } = await runCalls(toolset, [{ name: 'saveTree', args: { body: tree } }]);
    expect(responses[0]!.response).toMatchObject({ status: 200, body: tree });
  });

  it('a 50 MB description loads from a file and from a URL; over maxSpecBytes it is refused with the fix', async () => {
    const paths: Record<string, unknown> = {};
    const filler = 'x'.repeat(50_000);
    for (let i = 0; i < 1_000; i++)
      paths[`/items${i}/{id}`] = {
        get: { operationId: `getItem${i}`, description: filler, parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } },
      };
    const text = JSON.stringify({ openapi: '3.0.3', info: { title: 'big', version: '1' }, servers: [{ url: 'https://big.example.com' }], paths });
    expect(text.length).toBeGreaterThan(50_000_000);
    const file = join(dir, 'big.json');
    writeFileSync(file, text);
    const fromFile = await listTools(openApiToolset({ spec: file }));
    expect(fromFile).toHaveLength(1_000);
    expect(fromFile[999]!.description).toHaveLength(1_000);
    const server = await start(new Hono().get('/openapi.json', (c) => c.body(text, 200, { 'content-type': 'application/json' })));
    const fromUrl = await listTools(openApiToolset({ spec: `${server.url}/openapi.json` }));
    expect(fromUrl.map((t) => t.name)).toEqual(fromFile.map((t) => t.name));
    const small = openApiToolset({ spec: `${server.url}/openapi.json`, maxSpecBytes: 1_000_000 });
    await expect(small.tools(listingContext())).rejects.toThrow(
      `openApiToolset: the spec "${server.url}/openapi.json" is larger than maxSpecBytes (1000000 bytes); raise maxSpecBytes if you trust it.`,
    );
    await expect(openApiToolset({ spec: file, maxSpecBytes: 1_000 }).tools(listingContext())).rejects.toThrow(/has \d+ bytes, more than maxSpecBytes \(1000\)/);
  });

  it('Swagger 2.0 is refused with the fix; a non-OpenAPI document and an unreadable file are named', async () => {
    const swagger = openApiToolset({ spec: { swagger: '2.0', info: { title: 'old', version: '1' }, paths: {} } });
    const error = await swagger.tools(listingContext()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenApiSpecError);
    expect((error as OpenApiSpecError).code).toBe('OPENAPI_SPEC_ERROR');
    expect((error as Error).message).toBe(
      'openApiToolset: the spec object is Swagger 2.0; only OpenAPI 3.0 and 3.1 are supported. Convert it first (for example with the swagger2openapi package) and pass the result.',
    );
    await expect(openApiToolset({ spec: { openapi: '4.0.0', paths: {} } }).tools(listingContext())).rejects.toThrow(
      'openApiToolset: the spec object has "openapi": "4.0.0"; expected "3.0.x" or "3.1.x".',
    );
    await expect(openApiToolset({ spec: join(dir, 'missing.yaml') }).tools(listingContext())).rejects.toThrow(/cannot read the spec file ".*missing\.yaml": ENOENT/);
  });

  it('in an agent, a toolset whose description fails is left out with a warning; the other tools still run', async () => {
    const { InMemoryRunner, LlmAgent, createUserContent, getFunctionResponses } = await import('@adkit/flow');
    const { ScriptedModel, functionCallResponse, textResponse } = await import('@adkit/flow/testing');
    const { BaseTool } = await import('@adkit/tool');
    class Ping extends BaseTool {
      declaration() {
        return { name: 'ping', description: 'Ping.', parametersJsonSchema: { type: 'object', properties: {} } };
      }
      async run() {
        return { pong: true };
      }
    }
    const ping = new Ping({ name: 'ping', description: 'Ping.' });
    const broken = openApiToolset({ spec: { swagger: '2.0', info: { title: 'old', version: '1' }, paths: {} }, name: 'legacy' });
    const model = new ScriptedModel([functionCallResponse([{ name: 'ping', args: {} }]), textResponse('pong')]);
    const warnings: string[] = [];
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model, tools: [ping], toolsets: [broken] }), autoCreateSession: true, logger: { warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) } });
    const events = [];
    for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: createUserContent('ping') })) events.push(event);
    expect(events.flatMap((e) => getFunctionResponses(e)).map((r) => r.response)).toEqual([{ pong: true }]);
    expect(model.requests[0]!.config.tools![0]!.functionDeclarations!.map((d) => d.name)).toEqual(['ping']);
    expect(warnings.join('\n')).toContain('Swagger 2.0; only OpenAPI 3.0 and 3.1 are supported');
  });

  it('a YAML description from a file, and the first failed listing is retried on the next call', async () => {
    const file = join(dir, 'petstore.yaml');
    writeFileSync(file, 'openapi: 3.0.3\ninfo: {title: y, version: "1"}\nservers: [{url: "https://y.example.com"}]\npaths:\n  /a:\n    get: {operationId: getA, responses: {"200": {description: ok}}}\n');
    expect((await listTools(openApiToolset({ spec: file }))).map((t) => t.name)).toEqual(['getA']);
    const later = join(dir, 'later.yaml');
    const toolset = openApiToolset({ spec: later });
    await expect(toolset.tools(listingContext())).rejects.toThrow(/ENOENT/);
    writeFileSync(later, 'openapi: 3.1.0\ninfo: {title: y, version: "1"}\nservers: [{url: "https://y.example.com"}]\npaths: {/b: {get: {operationId: getB}}}\n');
    expect((await listTools(toolset)).map((t) => t.name)).toEqual(['getB']);
  });

  it('the caller\'s spec object is not changed', async () => {
    const spec = structuredClone(petstoreSpec);
    await listTools(openApiToolset({ spec, baseUrl: 'https://p.example.com' }));
    expect(spec).toEqual(petstoreSpec);
  });
});

describe('hostile servers', () => {
  const streamSpec = {
    openapi: '3.0.3',
    info: { title: 's', version: '1' },
    paths: { '/big': { get: { operationId: 'getBig', responses: { '200': { description: 'ok' } } } }, '/hang': { get: { operationId: 'hang', responses: { '200': { description: 'ok' } } } } },
  };

  it('a 1 GB answer is streamed and cut at maxResponseBytes; the server stops being read', async () => {
    let produced = 0;
    const chunk = new TextEncoder().encode('a'.repeat(65_536));
    const app = new Hono().get('/big', () => {
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (produced >= 1024 ** 3) return controller.close();
          produced += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/plain' } });
    });
    const server = await start(app);
    const toolset = openApiToolset({ spec: streamSpec, baseUrl: server.url, allowPrivateAddresses: ['127.0.0.1'], maxResponseBytes: 200_000 });
    const { responses } = await runCalls(toolset, [{ name: 'getBig', args: {} }]);
    const response = responses[0]!.response as { status: number; body: string; truncated: boolean };
    expect(response.status).toBe(200);
    expect(response.truncated).toBe(true);
    expect(response.body).toBe(`${'a'.repeat(200_000)}…`);
    await server.close();
    // The server produced what fit in the socket buffers, nowhere near 1 GB.
    expect(produced).toBeLessThan(64 * 1024 ** 2);
  });

  it('a server that never answers: the call ends at timeoutMs with an error saying so, and the run goes on', async () => {
    let aborted = false;
    const app = new Hono().get(
      '/hang',
      (c) =>
        new Promise<Response>((resolve) => {
          c.req.raw.signal.addEventListener('abort', () => {
            aborted = true;
            resolve(new Response('late'));
          });
        }),
    );
    const server = await start(app);
    const toolset = openApiToolset({ spec: streamSpec, baseUrl: server.url, allowPrivateAddresses: ['127.0.0.1'], timeoutMs: 300 });
    const { responses, events } = await runCalls(toolset, [{ name: 'hang', args: {} }]);
    expect(responses[0]!.response).toEqual({ error: 'Tool "hang" could not call GET /hang: no answer within 300 ms (timed out).' });
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('done');
    await expect.poll(() => aborted).toBe(true);
  });

  it('a server killed mid-answer: the call fails with the network reason, and the run goes on', async () => {
    const { createServer } = await import('node:http');
    const raw = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const port = (raw.address() as { port: number }).port;
    try {
      const toolset = openApiToolset({ spec: streamSpec, baseUrl: `http://127.0.0.1:${port}`, allowPrivateAddresses: ['127.0.0.1'] });
      const { responses, events } = await runCalls(toolset, [{ name: 'getBig', args: {} }]);
      expect(String(responses[0]!.response!.error)).toMatch(/^Tool "getBig" could not call GET \/big: the request failed \(.+\)\.$/);
      expect(events.at(-1)!.content!.parts![0]!.text).toBe('done');
    } finally {
      raw.closeAllConnections();
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('binary answers are described, not dumped; a 500 tells the model to retry later', async () => {
    const app = new Hono()
      .get('/big', () => new Response(new Uint8Array([0, 1, 2, 3]), { headers: { 'content-type': 'image/png' } }))
      .get('/hang', (c) => c.text('database down', 500));
    const server = await start(app);
    const toolset = openApiToolset({ spec: streamSpec, baseUrl: server.url, allowPrivateAddresses: ['127.0.0.1'] });
    const { responses } = await runCalls(toolset, [
      { name: 'getBig', args: {} },
      { name: 'hang', args: {} },
    ]);
    expect(responses.map((r) => r.response)).toEqual([
      { status: 200, headers: { 'content-type': 'image/png', 'content-length': '4' }, body: '(4 bytes of image/png, not shown)' },
      { error: 'GET /hang answered HTTP 500: database down. The API failed; retry later or tell the user.' },
    ]);
  });
});
