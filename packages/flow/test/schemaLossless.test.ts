// #9 point 7: lenient conversion is lossless only. `"12"` → 12 and `"true"` → true are accepted;
// anything that does not round-trip exactly stays as sent, so the check names the field. Bad input
// tried: 7.5 and "7.5" for an integer, "" for a number, true for a number, 1 for a boolean, " 12",
// "012", "1e3", "-0", "0x10", "Infinity", huge integers, a string for an array, "null", nested fields
// and array items, `__proto__` keys, self-referencing and exploding union schemas, deep values.
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../src/index.js';
import { convertLossless } from '../src/schema/convertLossless.js';

const schema = Type.Object({
  n: Type.Number(),
  i: Type.Integer(),
  b: Type.Boolean(),
  s: Type.String(),
  lit: Type.Literal(12),
  maybe: Type.Union([Type.Integer(), Type.Null()]),
  nested: Type.Object({ i: Type.Integer() }),
  list: Type.Array(Type.Integer()),
  pair: Type.Tuple([Type.Integer(), Type.Boolean()]),
  counts: Type.Record(Type.String(), Type.Integer()),
});

const valid = { n: 1, i: 1, b: false, s: 'x', lit: 12, maybe: null, nested: { i: 1 }, list: [1], pair: [1, true], counts: { a: 1 } };

/** `valid` with one field (a dotted path, `list.1` for an item) set to what the model sent. */
function sending(path: string, value: unknown): Record<string, unknown> {
  const args = structuredClone(valid) as Record<string, unknown>;
  const keys = path.split('.');
  let target = args as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[keys.at(-1)!] = value;
  return args;
}

function read(args: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], args);
}

// [field, sent, becomes]
const accepted: [string, unknown, unknown][] = [
  ['n', '12', 12],
  ['n', '-3', -3],
  ['n', '0.5', 0.5],
  ['i', '12', 12],
  ['i', '-40', -40],
  ['b', 'true', true],
  ['b', 'false', false],
  ['s', 7, '7'],
  ['s', 0.25, '0.25'],
  ['s', true, 'true'],
  ['lit', '12', 12],
  ['maybe', '12', 12],
  ['nested.i', '5', 5],
  ['list', ['1', '2'], [1, 2]],
  ['pair', ['3', 'true'], [3, true]],
  ['counts.a', '3', 3],
];

// [field, sent, the problem the model is told]
const refused: [string, unknown, string][] = [
  ['i', 7.5, 'i: must be integer'],
  ['i', '7.5', 'i: must be integer'],
  ['i', '', 'i: must be integer'],
  ['n', '', 'n: must be number'],
  ['n', true, 'n: must be number'],
  ['i', true, 'i: must be integer'],
  ['n', ' 12', 'n: must be number'],
  ['n', '012', 'n: must be number'],
  ['n', '12.0', 'n: must be number'],
  ['n', '1e3', 'n: must be number'],
  ['n', '-0', 'n: must be number'],
  ['n', '0x10', 'n: must be number'],
  ['n', 'Infinity', 'n: must be number'],
  ['n', 'NaN', 'n: must be number'],
  ['n', null, 'n: must be number'],
  ['i', '12345678901234567890', 'i: must be integer'],
  ['b', 1, 'b: must be boolean'],
  ['b', '1', 'b: must be boolean'],
  ['b', 'TRUE', 'b: must be boolean'],
  ['b', 'yes', 'b: must be boolean'],
  ['b', null, 'b: must be boolean'],
  ['s', null, 's: must be string'],
  ['s', { text: 'x' }, 's: must be string'],
  ['lit', '12.0', 'lit: must be 12'],
  ['lit', 13, 'lit: must be 12'],
  ['maybe', '', 'maybe: must be integer or null'],
  ['maybe', 'null', 'maybe: must be integer or null'],
  ['maybe', 0.5, 'maybe: must be integer or null'],
  ['nested.i', '7.5', 'nested.i: must be integer'],
  ['nested.i', true, 'nested.i: must be integer'],
  ['list', '1', 'list: must be array'],
  ['list.1', 'x', 'list[1]: must be integer'],
  ['list.0', 2.5, 'list[0]: must be integer'],
  ['pair.1', 1, 'pair[1]: must be boolean'],
  ['counts.a', '1.5', 'counts.a: must be integer'],
];

describe('#9 point 7: lossless lenient conversion', async () => {
  const compiled = await compileSchema(schema);

  it.each(accepted)('%s: %j is accepted as %j', (path, sent, becomes) => {
    const args = sending(path, sent);
    const coerced = compiled.coerce(args);
    expect(compiled.check(coerced)).toBe(true);
    expect(read(coerced, path)).toEqual(becomes);
    expect(read(args, path)).toEqual(sent); // the caller's arguments are not changed
  });

  it.each(refused)('%s: %j is refused, naming the field', (path, sent, problem) => {
    const coerced = compiled.coerce(sending(path, sent));
    expect(compiled.check(coerced)).toBe(false);
    expect(read(coerced, path)).toEqual(sent); // left as sent, never half-converted
    expect(compiled.problems(coerced)).toEqual([problem]);
  });

  it('several fields at once: the convertible ones are converted, each other one is named', () => {
    const coerced = compiled.coerce({ ...valid, n: '2', i: '7.5', b: 'true', nested: { i: '' }, list: ['1', 'x', '3'] });
    expect(compiled.problems(coerced)).toEqual(['i: must be integer', 'nested.i: must be integer', 'list[1]: must be integer']);
    expect(coerced).toMatchObject({ n: 2, b: true, list: [1, 'x', 3] });
  });
});

describe('convertLossless: how it follows the schema', () => {
  it('unions: a value that already has a branch type is kept; else the first lossless branch wins', () => {
    const idOrName = Type.Union([Type.Integer(), Type.String()]);
    expect(convertLossless(idOrName, '12')).toBe('12');
    expect(convertLossless(idOrName, 7.5)).toBe('7.5');
    expect(convertLossless(Type.Union([Type.Number(), Type.Boolean()]), 'true')).toBe(true);
    expect(convertLossless(Type.Union([Type.Literal('c'), Type.Literal('f')]), 'k')).toBe('k');
    expect(convertLossless(Type.Enum([1, 2, 3]), '2')).toBe(2);
  });

  it('object unions: the branch whose literal fields agree converts the object', () => {
    const shape = Type.Union([
      Type.Object({ kind: Type.Literal('square'), side: Type.Integer() }),
      Type.Object({ kind: Type.Literal('label'), side: Type.String() }),
    ]);
    expect(convertLossless(shape, { kind: 'label', side: 4 })).toEqual({ kind: 'label', side: '4' });
    expect(convertLossless(shape, { kind: 'square', side: '4' })).toEqual({ kind: 'square', side: 4 });
  });

  it('$ref to $defs and definitions, TypeBox cyclic types, allOf (Intersect)', () => {
    const plain = { $defs: { count: { type: 'integer' } }, type: 'object', properties: { n: { $ref: '#/$defs/count' } } };
    expect(convertLossless(plain, { n: '3' })).toEqual({ n: 3 });
    const legacy = { definitions: { flag: { type: 'boolean' } }, type: 'array', items: { $ref: '#/definitions/flag' } };
    expect(convertLossless(legacy, ['true', 'no'])).toEqual([true, 'no']);
    const tree = Type.Cyclic({ Node: Type.Object({ value: Type.Integer(), children: Type.Array(Type.Ref('Node')) }) }, 'Node');
    expect(convertLossless(tree, { value: '1', children: [{ value: '2', children: [] }] })).toEqual({
      value: 1,
      children: [{ value: 2, children: [] }],
    });
    const both = Type.Intersect([Type.Object({ a: Type.Integer() }), Type.Object({ b: Type.Boolean() })]);
    expect(convertLossless(both, { a: '1', b: 'false' })).toEqual({ a: 1, b: false });
  });

  it('a __proto__ key is converted as data and never becomes the prototype', () => {
    const value = JSON.parse('{"__proto__": "5", "constructor": "6"}') as Record<string, unknown>;
    const converted = convertLossless(
      { type: 'object', properties: { ['__proto__']: { type: 'integer' }, constructor: { type: 'integer' } } },
      value,
    ) as Record<string, unknown>;
    expect(Object.getPrototypeOf(converted)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(converted, '__proto__')!.value).toBe(5);
    expect(converted.constructor).toBe(6);
    // Keys the schema does not name are not looked up on Object.prototype.
    expect(convertLossless(Type.Object({}), { toString: '1' })).toEqual({ toString: '1' });
  });

  it('hostile schemas and values finish: self-references, exploding unions, 10,000 levels', () => {
    const loop = { $defs: { A: { $ref: 'A' } }, $ref: 'A' };
    expect(convertLossless(loop, '1')).toBe('1');
    const unionLoop = { $defs: { A: { anyOf: [{ $ref: 'A' }, { $ref: 'A' }, { type: 'integer' }] } }, $ref: 'A' };
    expect(convertLossless(unionLoop, 'x')).toBe('x');
    let deepSchema: Record<string, unknown> = { type: 'integer' };
    let deepValue: unknown = '1';
    for (let i = 0; i < 10_000; i++) {
      deepSchema = { type: 'array', items: deepSchema };
      deepValue = [deepValue];
    }
    // Conversion stops at depth 100: the leaf stays a string (and the check will say so).
    let leaf = convertLossless(deepSchema, deepValue);
    while (Array.isArray(leaf)) leaf = leaf[0];
    expect(leaf).toBe('1');
  });
});
