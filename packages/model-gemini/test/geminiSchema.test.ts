// #26: the Gemini adapter's one schema pass (geminiSchema): what Gemini or Vertex AI would refuse
// becomes what they accept, what the tool accepts never changes (the tool still validates with its
// own schema; the pass copies), and every rewrite is reported. Tried on the real schemas of the
// three real MCP servers, zod 4 / valibot / arktype output for the same tool, and all 1,223
// operations of GitHub's OpenAPI description, each checked against the documented subset
// (support/geminiSubset.ts). Hostile schemas: cycles, 10,000 levels, exponential references,
// `__proto__` names, unresolvable references, non-schema values.
import { LlmAgent, type JsonSchema } from '@adkit/flow';
import { functionTool } from '@adkit/function-tool';
import { startReplayServer } from '@adkit/replay-server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { geminiSchema } from '../src/index.js';
import { toGenaiRequest } from '../src/toGenaiRequest.js';
import { geminiAt, sentBodies } from './helpers.js';
import { geminiSubsetProblems } from './support/geminiSubset.js';
import { githubOperationSchemas, libraryOutputSchemas, mcpSchemas, type CorpusSchema } from './support/schemaCorpus.js';

function expectAccepted(corpus: CorpusSchema[]): void {
  const refused: string[] = [];
  for (const { source, schema } of corpus) {
    const before = JSON.stringify(schema);
    const passed = geminiSchema(schema);
    expect(JSON.stringify(schema), `${source} was changed in place`).toBe(before);
    for (const problem of geminiSubsetProblems(passed.schema)) refused.push(`${source} ${problem}`);
  }
  expect(refused).toEqual([]);
}

describe('#26 geminiSchema on real schemas: every result is in Gemini\'s documented subset', () => {
  it('the tools of the real MCP servers (everything, filesystem, memory), inputs and outputs', () => {
    const corpus = mcpSchemas();
    expect(corpus.length).toBe(60);
    // They need it: $schema on every one, and more.
    expect(corpus.filter(({ schema }) => geminiSubsetProblems(schema).length > 0).length).toBeGreaterThan(50);
    expectAccepted(corpus);
  });

  it('zod 4, valibot and arktype output for the same tool', () => {
    const corpus = libraryOutputSchemas();
    for (const { schema } of corpus) expect(geminiSubsetProblems(schema).length).toBeGreaterThan(0);
    expectAccepted(corpus);
  });

  it('every operation of GitHub\'s REST API (@octokit/openapi), with its components as $defs', () => {
    const corpus = githubOperationSchemas();
    expect(corpus.length).toBeGreaterThan(1000);
    expectAccepted(corpus);
  });
});

describe('#26 geminiSchema rules', () => {
  const pass = (schema: JsonSchema) => geminiSchema(schema);

  it('drops $schema and reports it', () => {
    expect(pass({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' })).toEqual({
      schema: { type: 'object' },
      changes: [{ path: '', keyword: '$schema', message: '"$schema" dropped (no meaning for the model)' }],
    });
  });

  it('inlines $refs to $defs, definitions and JSON pointers; a recursive one becomes a stub (cycle guard)', () => {
    const recursive = z.object({ name: z.string(), get child() { return recursiveSchema.optional(); } });
    const recursiveSchema = recursive;
    const json = recursiveSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
    const { schema, changes } = pass(json);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        // Expanded once, then a stub that says so.
        child: {
          type: 'object',
          properties: { name: { type: 'string' }, child: { type: 'object', description: 'Same structure as the whole schema (recursive; not expanded further).' } },
          required: ['name'],
        },
      },
      required: ['name'],
    });
    expect(changes).toContainEqual({ path: '/properties/child/properties/child', keyword: '$ref', message: 'recursive reference "#" is not expanded again' });
    const defs = pass({ type: 'object', properties: { a: { $ref: '#/$defs/A' }, b: { $ref: '#/definitions/B', description: 'the b' }, c: { $ref: '#/properties/a' } }, $defs: { A: { type: 'string' } }, definitions: { B: { type: 'integer' } } });
    expect(defs.schema).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer', description: 'the b' }, c: { type: 'string' } } });
    expect(pass({ $ref: '#/$defs/Missing' }).schema).toEqual({ description: 'Unresolved reference #/$defs/Missing.' });
    expect(pass({ $ref: 'https://example.com/schema.json' }).changes[0]!.message).toBe('reference "https://example.com/schema.json" cannot be resolved here; sent as any value');
  });

  it('collapses anyOf of plain types into a type list, keeping the description', () => {
    expect(pass({ description: 'maybe', anyOf: [{ type: 'string' }, { type: 'null' }] }).schema).toEqual({ description: 'maybe', type: ['string', 'null'] });
    expect(pass({ oneOf: [{ type: 'integer' }, { type: 'string' }] }).schema).toEqual({ type: ['integer', 'string'] });
  });

  it('moves keywords beside anyOf into each branch (Vertex refuses them side by side)', () => {
    const { schema, changes } = pass({
      type: 'object',
      description: 'where',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      anyOf: [{ required: ['a'] }, { required: ['b'] }],
    });
    expect(schema).toEqual({
      anyOf: [
        { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a'], description: 'where' },
        { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['b'], description: 'where' },
      ],
    });
    expect(changes).toContainEqual({ path: '', keyword: 'anyOf', message: 'keywords beside "anyOf" (description, properties, type) moved into each branch' });
  });

  it('merges allOf; sends nullable, const and enums in Gemini\'s terms', () => {
    expect(pass({ allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'number' } }, required: ['b'] }] }).schema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(pass({ type: 'string', nullable: true, enum: ['a', 'b', null] }).schema).toEqual({ type: ['string', 'null'], enum: ['a', 'b'] });
    expect(pass({ const: 'train' }).schema).toEqual({ enum: ['train'] });
    expect(pass({ type: 'boolean', enum: [true] }).schema).toEqual({ type: 'boolean', description: '(one of: [true])' });
  });

  it('moves unknown formats and constraints outside the subset into the description', () => {
    const { schema, changes } = pass({ type: 'string', description: 'A link.', format: 'uri', minLength: 1, pattern: '^https://', default: 'https://x' });
    expect(schema).toEqual({ type: 'string', description: 'A link. (minLength: 1; pattern: "^https://"; default: "https://x"; format: uri)' });
    expect(changes.map((c) => c.keyword)).toEqual(['minLength', 'pattern', 'default', 'format']);
    expect(pass({ type: 'string', format: 'date-time' }).schema).toEqual({ type: 'string', format: 'date-time' });
  });

  it('tuples, additionalProperties forms, boolean schemas, vendor keys', () => {
    expect(pass({ type: 'array', items: [{ type: 'string' }, { type: 'number' }] }).schema).toEqual({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] });
    expect(pass({ type: 'array', prefixItems: [{ type: 'string' }], items: false }).schema).toEqual({ type: 'array', prefixItems: [{ type: 'string' }] });
    expect(pass({ type: 'object', additionalProperties: true }).schema).toEqual({ type: 'object' });
    expect(pass({ type: 'object', additionalProperties: { type: 'string' } }).schema).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
    expect(pass({ type: 'object', properties: { a: true, b: false } as never }).schema).toEqual({ type: 'object', properties: { a: {}, b: { description: 'No value is allowed here.' } } });
    expect(pass({ type: 'string', 'x-github': { since: 1 }, readOnly: true } as JsonSchema).schema).toEqual({ type: 'string' });
  });

  it('hostile schemas: 10,000 levels, exponential references, __proto__ names stay bounded and safe', () => {
    let deep: JsonSchema = { type: 'string' };
    for (let i = 0; i < 10_000; i++) deep = { type: 'object', properties: { x: deep } };
    const deepPassed = pass(deep);
    expect(geminiSubsetProblems(deepPassed.schema)).toEqual([]);
    expect(deepPassed.changes.some((c) => c.message.includes('nested deeper than 40 levels'))).toBe(true);

    const defs: Record<string, JsonSchema> = { D0: { type: 'string' } };
    for (let i = 1; i <= 30; i++) defs[`D${i}`] = { type: 'object', properties: { a: { $ref: `#/$defs/D${i - 1}` }, b: { $ref: `#/$defs/D${i - 1}` } } };
    const wide = pass({ $ref: '#/$defs/D30', $defs: defs });
    expect(JSON.stringify(wide.schema).length).toBeLessThan(5_000_000);
    expect(wide.changes.some((c) => c.message.includes('larger than 20000 nodes'))).toBe(true);

    const proto = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","minLength":2}}}') as JsonSchema;
    const safe = pass(proto).schema;
    expect(Object.getPrototypeOf(safe.properties)).toBe(Object.prototype);
    expect(Object.hasOwn(safe.properties as object, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
    expect(pass({ type: 'object', properties: { a: 7 } } as never).schema).toEqual({ type: 'object', properties: { a: { description: 'No value is allowed here.' } } });
  });
});

describe('#26 the pass in the request mapping', () => {
  it('every JSON Schema of the request goes through it once per schema object; the request is not changed', () => {
    const parameters: JsonSchema = { $schema: 'x', type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } } };
    const output: JsonSchema = { $schema: 'x', type: 'object', properties: { ok: { type: 'boolean' } } };
    const request = {
      model: undefined,
      contents: [],
      config: { responseJsonSchema: output, tools: [{ functionDeclarations: [{ name: 't', parametersJsonSchema: parameters, responseJsonSchema: output }] }] },
      tools: {},
    } as never;
    const before = JSON.stringify(request);
    const schemas = new WeakMap<JsonSchema, JsonSchema>();
    const first = toGenaiRequest(request, 'gemini-2.5-flash', { vertexai: false, schemas });
    const second = toGenaiRequest(request, 'gemini-2.5-flash', { vertexai: false, schemas });
    expect(JSON.stringify(request)).toBe(before);
    const declarations = (params: typeof first) => (params.config!.tools as { functionDeclarations: { parametersJsonSchema?: unknown; responseJsonSchema?: unknown }[] }[])[0]!.functionDeclarations;
    const declaration = declarations(first)[0]!;
    expect(declaration.parametersJsonSchema).toEqual({ type: 'object', properties: { a: { type: ['string', 'null'] } } });
    expect(declaration.responseJsonSchema).toEqual({ type: 'object', properties: { ok: { type: 'boolean' } } });
    expect(first.config!.responseJsonSchema).toBe(declaration.responseJsonSchema);
    expect(declarations(second)[0]!.parametersJsonSchema).toBe(declaration.parametersJsonSchema);
  });

  it('a zod tool through the real SDK: the body Gemini gets is in the subset, and the tool still checks with its own schema', async () => {
    const server = await startReplayServer({ script: ['gemini--function-call.1.json', 'gemini--function-call.2.json'] });
    try {
      const seen: unknown[] = [];
      const tool = functionTool({
        name: 'get_weather',
        description: 'The weather.',
        parameters: z.object({ location: z.string().min(2), unit: z.enum(['celsius', 'fahrenheit']).nullable().optional() }),
        execute: (args) => {
          seen.push(args);
          return { temperature: 21 };
        },
      });
      const agent = new LlmAgent({ name: 'a', model: geminiAt(server, 'gemini-2.5-flash'), tools: [tool] });
      const { InMemoryRunner, createUserContent } = await import('@adkit/flow');
      const runner = new InMemoryRunner({ agent, appName: 'app' });
      await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
      for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('weather?') }));
      const body = sentBodies(server)[0] as { tools: { functionDeclarations: { name: string; parametersJsonSchema: JsonSchema }[] }[] };
      const declared = body.tools.flatMap((t) => t.functionDeclarations).find((d) => d.name === 'get_weather')!;
      expect(geminiSubsetProblems(declared.parametersJsonSchema)).toEqual([]);
      expect(declared.parametersJsonSchema).toEqual({
        type: 'object',
        properties: { location: { type: 'string', description: '(minLength: 2)' }, unit: { anyOf: [{ type: 'string', enum: ['celsius', 'fahrenheit'] }, { type: 'null' }] } },
        required: ['location'],
      });
      // The declaration the tool keeps is the library's, unchanged, and the tool still refuses
      // what the constraint moved into the description forbids.
      expect(tool.declaration().parametersJsonSchema!.properties).toMatchObject({ location: { minLength: 2 } });
      const { createToolContext } = await import('@adkit/flow/testing');
      await expect(tool.run(createToolContext(), { location: 'x' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENTS' });
      expect(seen.length).toBeLessThanOrEqual(1);
    } finally {
      await server.close();
    }
  });
});
