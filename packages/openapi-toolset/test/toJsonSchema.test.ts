// OpenAPI Schema Objects as the JSON Schema a model is given: 3.0's dialect converted, what only
// documents left out, what providers refuse repaired, hostile shapes bounded.
import { describe, expect, it } from 'vitest';
import { SchemaConverter } from '../src/toJsonSchema.js';

const limits = { maxDepth: 24, maxNodes: 5_000 };
const v30 = (schema: unknown) => new SchemaConverter(limits, true).convert(schema);
const v31 = (schema: unknown) => new SchemaConverter(limits, false).convert(schema);

describe('OpenAPI 3.0 schemas', () => {
  it('nullable joins null to the type, to an enum, or wraps a schema without a type', () => {
    expect(v30({ type: 'string', nullable: true })).toEqual({ type: ['string', 'null'] });
    expect(v30({ type: 'string', enum: ['a', 'b'], nullable: true })).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
    expect(v30({ oneOf: [{ type: 'string' }, { type: 'integer' }], nullable: true })).toEqual({
      anyOf: [{ oneOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'null' }],
    });
  });

  it('boolean exclusiveMinimum/exclusiveMaximum become the numbers of 2020-12', () => {
    expect(v30({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true })).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
      exclusiveMaximum: 10,
    });
    expect(v30({ type: 'number', minimum: 0, exclusiveMinimum: false })).toEqual({ type: 'number', minimum: 0 });
  });

  it('nullable means nothing in 3.1 (null is a type there)', () => {
    expect(v31({ type: 'string', nullable: true })).toEqual({ type: 'string' });
    expect(v31({ type: 'integer', exclusiveMinimum: 0 })).toEqual({ type: 'integer', exclusiveMinimum: 0 });
  });
});

describe('what a request schema keeps', () => {
  it('readOnly properties are left out, and no longer required', () => {
    expect(v31({ type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } } })).toEqual({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' } },
    });
  });

  it('documentation-only keywords and vendor extensions are left out', () => {
    expect(
      v30({ type: 'object', 'x-internal': true, xml: { name: 'pet' }, externalDocs: { url: 'x' }, example: { a: 1 }, discriminator: { propertyName: 'kind' }, properties: {} }),
    ).toEqual({ type: 'object', properties: {} });
  });

  it('an array without items gets items: {} (OpenAI refuses one); tuple items become prefixItems', () => {
    expect(v30({ type: 'array' })).toEqual({ type: 'array', items: {} });
    expect(v31({ type: 'array', items: [{ type: 'string' }, { type: 'integer' }] })).toEqual({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] });
  });

  it('a pattern that is not valid in Unicode mode is told to the model instead of failing the toolset', () => {
    expect(v31({ type: 'string', pattern: '^[\\w-.]+$' })).toEqual({ type: 'string', description: 'Pattern: ^[\\w-.]+$' });
    expect(v31({ type: 'string', pattern: '^[a-z]+$' })).toEqual({ type: 'string', pattern: '^[a-z]+$' });
  });

  it('required names that are not properties are dropped (Gemini refuses them)', () => {
    expect(v31({ type: 'object', required: ['a', 'ghost', 7], properties: { a: { type: 'string' } } })).toEqual({
      type: 'object',
      required: ['a'],
      properties: { a: { type: 'string' } },
    });
  });

  it('an external $ref the parser left (external references are never followed) becomes a note', () => {
    expect(v31({ $ref: 'https://evil.example/schema.json' })).toEqual({ description: 'See https://evil.example/schema.json.' });
  });
});

describe('hostile shapes', () => {
  it('a schema nested 10,000 deep is cut at maxDepth without exhausting the stack', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 10_000; i++) deep = { type: 'object', properties: { next: deep } };
    let node = v31(deep) as Record<string, unknown>;
    let depth = 0;
    while ((node.properties as Record<string, unknown> | undefined)?.next) {
      node = (node.properties as Record<string, Record<string, unknown>>).next!;
      depth++;
    }
    expect(depth).toBe(24);
    expect(node).toEqual({ type: 'object', description: 'Part of a deeply nested structure: given as JSON, checked by the server.' });
  });

  it('a schema of more nodes than maxNodes is cut there (shared subschemas count each time)', () => {
    const leaf = { type: 'object', properties: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, { type: 'string' }])) };
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, leaf])) };
    const out = new SchemaConverter({ maxDepth: 24, maxNodes: 1_000 }, false).convert(wide);
    const text = JSON.stringify(out);
    // Uncut leaves are exactly {"type":"string"}; cut ones carry the note.
    expect((text.match(/\{"type":"string"\}/g) ?? []).length).toBeLessThan(1_000);
    expect(text).toContain('Part of a deeply nested structure');
  });

  it('cycles are cut at the second visit of the same object', () => {
    const node: Record<string, unknown> = { type: 'object', title: 'Node', properties: {} };
    (node.properties as Record<string, unknown>).self = node;
    expect(v31(node)).toEqual({
      type: 'object',
      title: 'Node',
      properties: { self: { type: 'object', description: 'Part of a recursive structure (Node): given as JSON, checked by the server.' } },
    });
  });
});
