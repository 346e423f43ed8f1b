import { createLlmRequest, createUserContent, type JsonSchema } from '@adkit/flow';
import { startReplayServer } from '@adkit/replay-server';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { schemaReport } from '../src/index.js';
import { SchemaCache } from '../src/schemaCache.js';
import { compileStrictSchema, removeStrictNulls } from '../src/strictSchema.js';
import { collect, openaiAt, sentBodies } from './helpers.js';

const json = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as JsonSchema;

describe('strict schema compilation', () => {
  it('every property required, optional ones nullable, additionalProperties false, nested too', () => {
    const schema = json(
      Type.Object({
        city: Type.String({ description: 'City name' }),
        days: Type.Optional(Type.Integer({ minimum: 1 })),
        unit: Type.Optional(Type.Union([Type.Literal('C'), Type.Literal('F')])),
        note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        where: Type.Optional(Type.Object({ lat: Type.Number(), label: Type.Optional(Type.String()) })),
        tags: Type.Array(Type.Object({ name: Type.String(), weight: Type.Optional(Type.Number()) })),
      }),
    );
    const compiled = compileStrictSchema(schema);
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.schema).toEqual({
      type: 'object',
      required: ['city', 'days', 'unit', 'note', 'where', 'tags'],
      properties: {
        city: { type: 'string', description: 'City name' },
        days: { type: ['integer', 'null'], minimum: 1 },
        unit: { anyOf: [{ type: 'string', const: 'C' }, { type: 'string', const: 'F' }, { type: 'null' }] },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        where: {
          type: ['object', 'null'],
          required: ['lat', 'label'],
          properties: { lat: { type: 'number' }, label: { type: ['string', 'null'] } },
          additionalProperties: false,
        },
        tags: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'weight'],
            properties: { name: { type: 'string' }, weight: { type: ['number', 'null'] } },
            additionalProperties: false,
          },
        },
      },
      additionalProperties: false,
    });
    // Nulls for keys that were optional (and not nullable) disappear; an explicit null for a nullable key stays.
    expect(
      removeStrictNulls(
        { city: 'Oslo', days: null, unit: null, note: null, where: { lat: 1, label: null }, tags: [{ name: 'a', weight: null }, { name: 'b', weight: 2 }] },
        compiled.plan,
        compiled.defs,
      ),
    ).toEqual({ city: 'Oslo', note: null, where: { lat: 1 }, tags: [{ name: 'a' }, { name: 'b', weight: 2 }] });
    expect(removeStrictNulls({ city: 'Oslo', where: null }, compiled.plan, compiled.defs)).toEqual({ city: 'Oslo' });
  });

  it('unsupported keywords and formats move into the description; oneOf becomes anyOf; local $refs work', () => {
    const compiled = compileStrictSchema({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2, maxLength: 9, format: 'uri', description: 'Name' },
        when: { type: 'string', format: 'date-time' },
        pick: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        home: { $ref: '#/$defs/Place' },
      },
      required: ['name', 'when', 'pick'],
      $defs: { Place: { type: 'object', properties: { zip: { type: 'string' }, floor: { type: 'integer' } }, required: ['zip'] } },
    });
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.schema.properties).toEqual({
      name: { type: 'string', description: 'Name (minLength: 2; maxLength: 9; format: uri)' },
      when: { type: 'string', format: 'date-time' },
      pick: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      home: { anyOf: [{ $ref: '#/$defs/Place' }, { type: 'null' }] },
    });
    expect(compiled.schema.$defs).toEqual({
      Place: {
        type: 'object',
        properties: { zip: { type: 'string' }, floor: { type: ['integer', 'null'] } },
        required: ['zip', 'floor'],
        additionalProperties: false,
      },
    });
    expect(removeStrictNulls({ name: 'ab', when: 'x', pick: 1, home: { zip: '1', floor: null } }, compiled.plan, compiled.defs)).toEqual({
      name: 'ab',
      when: 'x',
      pick: 1,
      home: { zip: '1' },
    });
  });

  it.each([
    ['a map (Type.Record → patternProperties)', Type.Object({ tags: Type.Record(Type.String(), Type.Number()) }), 'patternProperties'],
    ['a tuple', Type.Object({ pair: Type.Tuple([Type.String(), Type.Number()]) }), 'items'],
    ['a free-form object', Type.Object({ meta: Type.Object({}) }), 'properties'],
    ['an open object', { type: 'object', properties: { a: { type: 'object', properties: {}, additionalProperties: true } } }, 'additionalProperties'],
    ['allOf', { type: 'object', properties: { a: { allOf: [{ type: 'string' }] } } }, 'allOf'],
    ['a value of any type', { type: 'object', properties: { a: {} } }, 'type'],
    ['a remote $ref', { type: 'object', properties: { a: { $ref: 'https://x/s.json' } } }, '$ref'],
    ['an array without items', { type: 'object', properties: { a: { type: 'array' } } }, 'items'],
    ['a root that is not an object', { type: 'string' }, 'type'],
  ])('bad input: %s has no strict form, and says why', (_name, schema, keyword) => {
    const compiled = compileStrictSchema(json(schema));
    expect(compiled.ok).toBe(false);
    if (compiled.ok) return;
    expect(compiled.problems.map((p) => p.keyword)).toContain(keyword);
  });

  it('compiles each schema object once per cache', () => {
    const schema = json(Type.Object({ a: Type.String() }));
    const schemas = new SchemaCache();
    expect(schemas.strict(schema)).toBe(schemas.strict(schema));
    expect(new SchemaCache().strict(schema)).not.toBe(schemas.strict(schema));
  });
});

describe('strict mode through the SDK', () => {
  it('sends compiled schemas with strict: true, falls back to non-strict for a schema with no strict form, and removes nulls from args', async () => {
    const server = await startReplayServer();
    server.enqueue({
      endpoint: '/chat/completions',
      json: {
        model: 'gpt-4o',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'c1', type: 'function', function: { name: 'forecast', arguments: '{"city":"Oslo","days":null}' } },
                { id: 'c2', type: 'function', function: { name: 'label', arguments: '{"tags":{"a":1},"note":null}' } },
              ],
            },
          },
        ],
      },
    });
    const forecast = json(Type.Object({ city: Type.String(), days: Type.Optional(Type.Integer()) }));
    const label = json(Type.Object({ tags: Type.Record(Type.String(), Type.Number()), note: Type.Optional(Type.String()) }));
    const request = createLlmRequest({
      contents: [createUserContent('go')],
      config: { tools: [{ functionDeclarations: [{ name: 'forecast', parametersJsonSchema: forecast }, { name: 'label', parametersJsonSchema: label }] }] },
    });
    const [response] = await collect(openaiAt(server, 'gpt-4o', { strict: true }), request, false);
    await server.close();
    expect(response!.content!.parts!.map((p) => p.functionCall)).toEqual([
      { id: 'c1', name: 'forecast', args: { city: 'Oslo' } },
      // Not strict: the model's null is passed on as sent.
      { id: 'c2', name: 'label', args: { tags: { a: 1 }, note: null } },
    ]);
    expect((sentBodies(server)[0]!.tools as Array<{ function: unknown }>).map((t) => t.function)).toEqual([
      {
        name: 'forecast',
        parameters: {
          type: 'object',
          required: ['city', 'days'],
          properties: { city: { type: 'string' }, days: { type: ['integer', 'null'] } },
          additionalProperties: false,
        },
        strict: true,
      },
      { name: 'label', parameters: label },
    ]);
  });

  it('structured output: the response schema is sent strict and nulls leave the JSON text', async () => {
    const server = await startReplayServer();
    server.enqueue({
      endpoint: '/responses',
      json: {
        id: 'r',
        object: 'response',
        status: 'completed',
        model: 'gpt-4o',
        output: [{ type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '{"title":"T","subtitle":null}', annotations: [] }] }],
      },
    });
    const schema = json(Type.Object({ title: Type.String(), subtitle: Type.Optional(Type.String()) }));
    const request = createLlmRequest({ contents: [createUserContent('go')], config: { responseJsonSchema: schema } });
    const [response] = await collect(openaiAt(server, 'gpt-4o', { api: 'responses', strict: true }), request, false);
    await server.close();
    expect(response!.content!.parts![0]!.text).toBe('{"title":"T"}');
    expect(sentBodies(server)[0]!.text).toEqual({
      format: {
        type: 'json_schema',
        name: 'response',
        strict: true,
        schema: {
          type: 'object',
          required: ['title', 'subtitle'],
          properties: { title: { type: 'string' }, subtitle: { type: ['string', 'null'] } },
          additionalProperties: false,
        },
      },
    });
  });
});

describe('schemaReport', () => {
  it('lists per provider what would be rejected, ignored or changed', () => {
    const schema = json(
      Type.Object({
        name: Type.String({ minLength: 1, format: 'uri' }),
        age: Type.Optional(Type.Integer()),
        tags: Type.Record(Type.String(), Type.Number()),
        pair: Type.Tuple([Type.String(), Type.Number()]),
      }),
    );
    const report = schemaReport(schema);
    const brief = (findings: typeof report.openai) => findings.map((f) => `${f.effect} ${f.path} ${f.keyword}`);
    expect(brief(report.openai)).toEqual([
      'ignored /properties/name minLength',
      'ignored /properties/name format',
      'ignored /properties/tags patternProperties',
      'changed /properties/pair items',
      'ignored /properties/pair minItems',
    ]);
    expect(brief(report['openai-strict'])).toEqual([
      'rejected /properties/tags patternProperties',
      'rejected /properties/tags properties',
      'rejected /properties/pair additionalItems',
      'rejected /properties/pair items',
    ]);
    expect(brief(report.gemini)).toEqual([
      'ignored /properties/name minLength',
      'ignored /properties/tags patternProperties',
      'rejected /properties/pair items',
      'ignored /properties/pair additionalItems',
    ]);
  });

  it('a schema strict mode can express lists what strict mode changes and what moves into the description', () => {
    const report = schemaReport(json(Type.Object({ name: Type.String({ maxLength: 5 }), age: Type.Optional(Type.Integer()) })));
    expect(report['openai-strict'].map((f) => `${f.effect} ${f.path} ${f.keyword}`)).toEqual([
      'changed  additionalProperties',
      'ignored /properties/name maxLength',
      'changed /properties/age required',
    ]);
    expect(report.openai.map((f) => f.keyword)).toEqual(['maxLength']);
    expect(report.gemini.map((f) => f.keyword)).toEqual(['maxLength']);
  });

  it('bad input: a root that is not an object is rejected by OpenAI and by strict mode', () => {
    const report = schemaReport({ type: 'string' });
    expect(report.openai[0]).toEqual({ path: '', keyword: 'type', effect: 'rejected', message: 'function parameters must be a JSON Schema of type "object"' });
    expect(report['openai-strict'][0]).toMatchObject({ effect: 'rejected', message: 'the root of a strict schema must be an object' });
    expect(report.gemini).toEqual([]);
  });
});
