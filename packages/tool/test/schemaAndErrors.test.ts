// Schema helpers (compile once, at most 8 `path: message` problems) and ToolError. Bad input tried:
// wrong types, missing and unknown keys, literal and type unions, enums, array items, keys that are
// not identifiers, an object union, more than 8 problems, a non-object value.
import { AdkitError, isAdkitError } from '@adkit/flow';
import Type from 'typebox';
import { Settings } from 'typebox/system';
import { describe, expect, it } from 'vitest';
import {
  compileSchema,
  describeFields,
  formatSchemaPath,
  invalidArgumentsError,
  isObjectSchema,
  isToolError,
  ToolError,
} from '../src/index.js';

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
  const compiled = compileSchema(schema);

  it('check is the compiled check', () => {
    const valid = { name: 'x', units: 'c', level: 'low', note: null, tags: [] };
    expect(compiled.check(valid)).toBe(true);
    expect(compiled.problems(valid)).toEqual([]);
    expect(compiled.schema).toBe(schema);
  });

  it('problems: one readable line per problem', () => {
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

  it('problems: at most 8, or fewer when asked', () => {
    const wide = compileSchema(Type.Object(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, Type.Number()]))));
    const bad = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, 'x']));
    expect(wide.problems(bad)).toHaveLength(8);
    expect(wide.problems(bad, 2)).toEqual(['f0: must be number', 'f1: must be number']);
  });

  it('coerce: defaults, conversion and cleaning on a copy', () => {
    const lenient = compileSchema(Type.Object({ n: Type.Integer(), on: Type.Boolean(), d: Type.Optional(Type.String({ default: 'x' })) }));
    const input = { n: '42', on: 'true', junk: 1 };
    expect(lenient.coerce(input)).toEqual({ n: 42, on: true, d: 'x' });
    expect(input).toEqual({ n: '42', on: 'true', junk: 1 });
  });

  it('formatSchemaPath: JSON pointers in dot/bracket form', () => {
    expect(formatSchemaPath('')).toBe('(root)');
    expect(formatSchemaPath('/items/0/price')).toBe('items[0].price');
    expect(formatSchemaPath('/a~1b/c~0d')).toBe('["a/b"]["c~d"]');
  });

  it('isObjectSchema and describeFields', () => {
    expect(isObjectSchema(Type.Object({}))).toBe(true);
    expect(isObjectSchema({ type: ['object', 'null'] })).toBe(true);
    expect(isObjectSchema(Type.String())).toBe(false);
    expect(isObjectSchema(Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]))).toBe(false);
    expect(isObjectSchema(null)).toBe(false);
    expect(describeFields(schema)).toBe(
      'name (string, required), units ("c" | "f", required), level ("low" | "high", required), note (string | null, required), tags (array of string, required), odd key (number, optional), shape (object | object, optional)',
    );
    expect(describeFields(Type.Object({ n: Type.Optional(Type.Integer({ default: 3 })) }))).toBe('n (integer, optional, default 3)');
    expect(describeFields(Type.Object({}))).toBe('');
  });
});

describe('ToolError', () => {
  it('is an AdkitError with a stable code, recognised across copies', () => {
    const error = new ToolError('the backend is down; try again in a minute', { toolName: 'search', cause: new Error('503') });
    expect(error).toBeInstanceOf(AdkitError);
    expect(isAdkitError(error)).toBe(true);
    expect(isToolError(error)).toBe(true);
    expect([error.name, error.code, error.toolName, error.problems]).toEqual(['ToolError', 'TOOL_ERROR', 'search', []]);
    expect((error.cause as Error).message).toBe('503');
    expect(isToolError(new AdkitError('TOOL_ERROR', 'x'))).toBe(false);
    expect(isToolError({ [Symbol.for('adkit.toolError')]: true })).toBe(true);
    expect(isToolError(null)).toBe(false);
  });

  it('invalidArgumentsError lists the problems and the expected fields', () => {
    const error = invalidArgumentsError('get_weather', ['days: must be <= 14'], Type.Object({ city: Type.String(), days: Type.Integer() }));
    expect(error.message).toBe(
      'Invalid arguments for tool "get_weather": days: must be <= 14. Expected fields: city (string, required), days (integer, required). Correct the arguments and call the tool again.',
    );
    expect([error.code, error.toolName, error.problems]).toEqual(['INVALID_ARGUMENTS', 'get_weather', ['days: must be <= 14']]);
  });
});
