// The schema helpers' one home (compile on first use, at most 8 `path: message` problems), shared by
// the output schema and the tool packs. Bad input tried: wrong types, missing and unknown keys,
// literal and type unions, enums, array items, keys that are not identifiers, an object union, more
// than 8 problems, a non-object value, invalid regular expressions, non-schema nodes, a cyclic
// schema object, a value nested 10,000 levels deep, `__proto__` keys.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Type from 'typebox';
import { Settings } from 'typebox/system';
import { describe, expect, it } from 'vitest';
import { checkSchemaSyntax, compileSchema, formatSchemaPath, LazySchema, LlmAgent } from '../src/index.js';
import { copyJson } from '../src/schema/copyJson.js';
import { functionCallResponse, ScriptedModel, textResponse } from '../src/testing/index.js';
import { runOnce } from './support.js';

describe('compileSchema', () => {
  const schema = Type.Object(
    {
      name: Type.String({ minLength: 1 }),
      units: Type.Union([Type.Literal('c'), Type.Literal('f')]),
      level: Type.Enum(['low', 'high']),
      note: Type.Union([Type.String(), Type.Null()]),
      tags: Type.Array(Type.String()),
      'odd key': Type.Optional(Type.Number()),
      shape: Type.Optional(Type.Union([Type.Object({ r: Type.Number() }), Type.Object({ w: Type.Number() })])),
    },
    { additionalProperties: false },
  );

  it('check is the compiled check', async () => {
    const compiled = await compileSchema(schema);
    const valid = { name: 'x', units: 'c', level: 'low', note: null, tags: [] };
    expect(compiled.check(valid)).toBe(true);
    expect(compiled.problems(valid)).toEqual([]);
    expect(compiled.schema).toBe(schema);
  });

  it('problems: one readable line per problem, naming the field', async () => {
    const compiled = await compileSchema(schema);
    expect(compiled.problems({ units: 'k', level: 'mid', note: 3, tags: ['a', 2], 'odd key': 'x', extra: 1 })).toEqual([
      'name: is required',
      'extra: is not allowed',
      'units: must be "c" or "f"',
      'level: must be "low" or "high"',
      'note: must be string or null',
      'tags[1]: must be string',
      '["odd key"]: must be number',
    ]);
    expect(compiled.problems({ name: '', units: 'c', level: 'low', note: null, tags: [], shape: { r: 'big' } })).toEqual([
      'name: must not have fewer than 1 characters',
      'shape: does not match any of the allowed forms',
    ]);
    expect(compiled.problems('nope')).toEqual(['(root): must be object']);
    // TypeBox's global error limit is raised only while collecting, then restored.
    expect(Settings.Get().maxErrors).toBe(8);
  });

  it('problems: at most 8, or fewer when asked', async () => {
    const wide = await compileSchema(Type.Object(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, Type.Number()]))));
    const bad = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, 'x']));
    expect(wide.problems(bad)).toHaveLength(8);
    expect(wide.problems(bad, 2)).toEqual(['f0: must be number', 'f1: must be number']);
  });

  it('coerce: defaults, lossless conversion and cleaning, on a copy', async () => {
    const lenient = await compileSchema(Type.Object({ n: Type.Integer(), on: Type.Boolean(), d: Type.Optional(Type.String({ default: 'x' })) }));
    const input = { n: '42', on: 'true', junk: 1 };
    expect(lenient.coerce(input)).toEqual({ n: 42, on: true, d: 'x' });
    expect(input).toEqual({ n: '42', on: 'true', junk: 1 });
  });

  it('coerce: a value that already fits is only cleaned, never converted', async () => {
    const either = await compileSchema(Type.Object({ id: Type.Union([Type.Integer(), Type.String()]) }));
    expect(either.coerce({ id: '12', junk: true })).toEqual({ id: '12' });
  });

  it('coerce: a value nested 10,000 levels deep is copied without exhausting the stack', async () => {
    const anything = await compileSchema(Type.Object({ n: Type.Integer(), deep: Type.Any() }));
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let i = 0; i < 10_000; i++) cursor = (cursor.a = {}) as Record<string, unknown>;
    const coerced = anything.coerce({ n: '1', deep }) as { n: number; deep: unknown };
    expect(coerced.n).toBe(1);
    expect(coerced.deep === deep).toBe(false); // (not toBe: vitest would walk the value to describe it)
  });

  it('formatSchemaPath: JSON pointers in dot/bracket form', () => {
    expect(formatSchemaPath('')).toBe('(root)');
    expect(formatSchemaPath('/items/0/price')).toBe('items[0].price');
    expect(formatSchemaPath('/a~1b/c~0d')).toBe('["a/b"]["c~d"]');
  });
});

describe('copyJson', () => {
  it('copies plain objects and arrays, keeps __proto__ keys as data, shares other objects, keeps cycles', () => {
    const date = new Date(0);
    const source = JSON.parse('{"__proto__": {"x": 1}, "list": [1, {"y": 2}]}') as Record<string, unknown>;
    source.when = date;
    source.self = source;
    const copy = copyJson(source) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(copy.__proto__).toEqual({ x: 1 });
    expect(copy.list).toEqual([1, { y: 2 }]);
    expect(copy.list).not.toBe(source.list);
    expect(copy.when).toBe(date);
    expect(copy.self).toBe(copy);
  });
});

describe('checkSchemaSyntax and LazySchema', () => {
  it('refuses what compiling would refuse, with the same error, without compiling', () => {
    expect(() => checkSchemaSyntax(Type.String({ pattern: '(' }))).toThrow(new SyntaxError('Invalid regular expression: /(/u: Unterminated group'));
    expect(() => checkSchemaSyntax({ type: 'object', patternProperties: { '[': {} } })).toThrow(SyntaxError);
    expect(() => checkSchemaSyntax({ type: 'object', properties: { a: 5 } })).toThrow(
      new TypeError('the schema at (root).properties["a"] must be an object or a boolean, got number'),
    );
    expect(() => checkSchemaSyntax({ anyOf: [{ type: 'string' }, null] })).toThrow(
      'the schema at (root).anyOf[1] must be an object or a boolean, got null',
    );
    expect(() => checkSchemaSyntax(null)).toThrow('the schema at (root) must be an object or a boolean, got null');
  });

  it('accepts valid schemas: TypeBox ones, plain JSON, boolean nodes, a cyclic object, 10,000 levels deep', () => {
    checkSchemaSyntax(Type.Object({ a: Type.Tuple([Type.String()]), b: Type.Record(Type.String(), Type.Integer()) }));
    checkSchemaSyntax({ type: 'object', properties: { a: true }, additionalProperties: false });
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    checkSchemaSyntax(cyclic);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 10_000; i++) deep = { type: 'array', items: deep };
    checkSchemaSyntax(deep);
  });

  it('LazySchema: checks at construction, compiles once on first use, and keeps the result on itself', async () => {
    expect(() => new LazySchema(Type.String({ pattern: '(' }))).toThrow(SyntaxError);
    const schema = Type.Object({ id: Type.Integer() });
    const lazy = new LazySchema(schema);
    expect(lazy.compiled).toBeUndefined();
    const [first, second] = await Promise.all([lazy.compile(), lazy.compile()]);
    expect(first).toBe(second);
    expect(lazy.compiled).toBe(first);
    expect(first.check({ id: 1 })).toBe(true);
    // No module-level cache: another owner of the same schema object compiles its own.
    const other = new LazySchema(schema);
    expect(other.compiled).toBeUndefined();
    expect(await other.compile()).not.toBe(first);
  });
});

describe('the output schema (BT-9) shares the helpers and lives on its agent', () => {
  it('each agent owns its compiled output schema, compiled on its first run', async () => {
    const schema = Type.Object({ city: Type.String() });
    const a = new LlmAgent({ name: 'a', model: new ScriptedModel([textResponse('{"city":"Paris"}')]), outputSchema: schema, outputKey: 'out' });
    const b = new LlmAgent({ name: 'b', outputSchema: schema });
    expect(a.compiledOutputSchema).toBeDefined();
    expect(a.compiledOutputSchema).not.toBe(b.compiledOutputSchema);
    expect(a.compiledOutputSchema!.tool).not.toBe(b.compiledOutputSchema!.tool);
    const compiled = a.compiledOutputSchema!.compile();
    expect(a.compiledOutputSchema!.compile()).toBe(compiled);
    await runOnce(a, 'q');
    expect(await a.compiledOutputSchema!.compile()).toBe(await compiled);
    expect(new LlmAgent({ name: 'c' }).compiledOutputSchema).toBeUndefined();
  });

  it('set_model_response reports problems in the shared path: message form, naming nested fields', async () => {
    const schema = Type.Object({ place: Type.Object({ city: Type.String(), stops: Type.Array(Type.Integer()) }) });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'set_model_response', args: { place: { city: 7, stops: [1, 'x'] } } }]),
      textResponse('giving up'),
    ]);
    const tool = { name: 'noop', description: 'n', declaration: () => ({ name: 'noop' }), run: async () => ({}) };
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, outputSchema: schema, tools: [tool] }), 'q');
    const response = events.flatMap((e) => e.content?.parts ?? []).find((p) => p.functionResponse)!.functionResponse!;
    expect(response.response).toEqual({ error: 'invalid output schema: place.city: must be string; place.stops[1]: must be integer' });
  });
});

describe('TypeBox loads on first use, not on import (#9 cold start)', () => {
  it('no source file of flow imports TypeBox at run time, except compileSchema through import()', async () => {
    const root = fileURLToPath(new URL('../src/', import.meta.url));
    const offenders: string[] = [];
    for (const file of await sourceFiles(root)) {
      const text = await readFile(file, 'utf8');
      for (const line of text.split('\n'))
        if (/^\s*import\s+(?!type\b)[^;]*from\s+'typebox/.test(line) || /^\s*import\s+'typebox/.test(line))
          offenders.push(`${file.slice(root.length)}: ${line.trim()}`);
    }
    expect(offenders).toEqual([]);
    const compile = await readFile(join(root, 'schema/compileSchema.ts'), 'utf8');
    expect(compile).toContain("import('typebox/compile')");
  });
});

async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await sourceFiles(path)));
    else if (entry.name.endsWith('.ts')) files.push(path);
  }
  return files;
}
