// Schema description helpers and ToolError. Bad input tried: literal and type unions, enums, arrays,
// keys that are not identifiers, an object union, an intersection, null instead of a schema.
import { AdkitError, isAdkitError } from '@adkit/flow';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import {
  describeFields,
  invalidArgumentsError,
  isObjectSchema,
  isToolError,
  ToolError,
} from '../src/index.js';

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

// compileSchema, LazySchema and the error formatting live in @adkit/flow (test/schema*.test.ts);
// @adkit/tool re-exports them for tool authors (test/index.test.ts).
describe('schema helpers', () => {
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
