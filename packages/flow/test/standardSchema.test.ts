// Schemas of either kind through SchemaCheck (#26): zod 4, valibot and arktype beside TypeBox, the
// declaration from `~standard.jsonSchema` without `$schema`, validation through `~standard.validate`
// (transforms, defaults, refinements, async validators), problems in the `path: message` form, and
// schemas an attacker wrote: validate that throws, never settles, mutates its input, answers
// nonsense or reports 10 MB of issues; libraries without JSON Schema output.
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import Type from 'typebox';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StandardJsonSchema } from '../src/index.js';
import { formatStandardIssues, isAdkitError, isStandardSchema, LlmAgent, SchemaCheck } from '../src/index.js';
import { functionCallResponse, ScriptedModel, textResponse } from '../src/testing/index.js';
import { runOnce } from './support.js';

const label = 'tool "t": the parameters schema';

/** The same weather input in the three libraries. */
const zodInput = z.object({ city: z.string().min(1), days: z.number().int().min(1).max(14).default(3), units: z.enum(['c', 'f']).optional() });
const valibotInput = toStandardJsonSchema(
  v.object({ city: v.pipe(v.string(), v.minLength(1)), days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(14)), 3), units: v.optional(v.picklist(['c', 'f'])) }),
);
const arkInput = type({ city: 'string > 0', 'days?': '1 <= number.integer <= 14', 'units?': "'c' | 'f'" });

/** A hand-written Standard JSON Schema, so a test controls exactly what validate does. */
function handWritten(validate: (value: unknown) => unknown, jsonSchema: Record<string, unknown> = { type: 'object' }): StandardJsonSchema {
  return {
    '~standard': {
      version: 1,
      vendor: 'hand',
      validate: validate as StandardJsonSchema['~standard']['validate'],
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
    },
  } as StandardJsonSchema;
}

async function problemsOf(check: SchemaCheck, value: unknown): Promise<string[]> {
  const result = await check.validate(value);
  if (result.ok) throw new Error('expected a failure');
  return result.problems;
}

describe('#26 Standard JSON Schema beside TypeBox (SchemaCheck)', () => {
  it('tells the kinds apart: TypeBox and plain JSON Schema are not Standard Schemas', () => {
    expect(isStandardSchema(zodInput)).toBe(true);
    expect(isStandardSchema(valibotInput)).toBe(true);
    expect(isStandardSchema(arkInput)).toBe(true);
    expect(isStandardSchema(Type.Object({}))).toBe(false);
    expect(isStandardSchema({ type: 'object' })).toBe(false);
    expect(new SchemaCheck(zodInput, { label }).kind).toBe('standard');
    expect(new SchemaCheck(Type.Object({}), { label }).kind).toBe('typebox');
  });

  it('declares ~standard.jsonSchema.input (draft 2020-12) without $schema, as a detached plain copy', () => {
    const zod = new SchemaCheck(zodInput, { label });
    expect(zod.jsonSchema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1 },
        days: { default: 3, type: 'integer', minimum: 1, maximum: 14 },
        units: { type: 'string', enum: ['c', 'f'] },
      },
      required: ['city'],
    });
    for (const schema of [valibotInput, arkInput]) {
      const json = new SchemaCheck(schema, { label }).jsonSchema;
      expect(json.$schema).toBeUndefined();
      expect(json).toMatchObject({ type: 'object', required: ['city'], properties: { city: { type: 'string', minLength: 1 } } });
    }
    zod.jsonSchema.type = 'changed';
    expect(new SchemaCheck(zodInput, { label }).jsonSchema.type).toBe('object');
  });

  it('validates through ~standard.validate: the output value has defaults and transforms applied', async () => {
    const schema = z.object({ city: z.string().transform((s) => s.toUpperCase()), days: z.number().default(3) });
    const check = new SchemaCheck(schema, { label });
    expect(await check.validate({ city: 'paris' })).toEqual({ ok: true, value: { city: 'PARIS', days: 3 } });
    expect(await new SchemaCheck(valibotInput, { label }).validate({ city: 'x' })).toEqual({ ok: true, value: { city: 'x', days: 3 } });
    expect(await new SchemaCheck(arkInput, { label }).validate({ city: 'x', days: 2 })).toEqual({ ok: true, value: { city: 'x', days: 2 } });
  });

  it('problems read path: message in every library, as TypeBox problems do', async () => {
    const bad = { city: '', days: 1.5 };
    expect(await problemsOf(new SchemaCheck(zodInput, { label }), bad)).toEqual([
      'city: Too small: expected string to have >=1 characters',
      'days: Invalid input: expected int, received number',
    ]);
    expect(await problemsOf(new SchemaCheck(valibotInput, { label }), bad)).toEqual([
      'city: Invalid length: Expected >=1 but received 0',
      'days: Invalid integer: Received 1.5',
    ]);
    // arktype repeats the path in its message; it is said once.
    expect(await problemsOf(new SchemaCheck(arkInput, { label }), bad)).toEqual(['city: must be non-empty', 'days: must be an integer (was 1.5)']);
    const nested = z.object({ items: z.array(z.object({ price: z.number() })) });
    expect(await problemsOf(new SchemaCheck(nested, { label }), { items: [{ price: 1 }, { price: 'x' }] })).toEqual([
      'items[1].price: Invalid input: expected number, received string',
    ]);
    expect(await problemsOf(new SchemaCheck(z.object({}), { label }), 'text')).toEqual(['(root): Invalid input: expected object, received string']);
  });

  it('an async validator works (an async zod refinement)', async () => {
    const schema = z.object({ code: z.string().refine(async (s) => s === 'ok', 'unknown code') });
    const check = new SchemaCheck(schema, { label });
    const pending = check.validate({ code: 'no' });
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual({ ok: false, problems: ['code: unknown code'] });
    expect(await check.validate({ code: 'ok' })).toEqual({ ok: true, value: { code: 'ok' } });
  });

  it('validateLenient converts losslessly, guided by the declared JSON Schema, then validates again', async () => {
    const check = new SchemaCheck(zodInput, { label });
    expect(await check.validateLenient({ city: 'Oslo', days: '4' })).toEqual({ ok: true, value: { city: 'Oslo', days: 4 } });
    // Never lossy: "4.5" stays a string, and the problem is the converted value's.
    expect(await check.validateLenient({ city: 'Oslo', days: '4.5' })).toEqual({ ok: false, problems: ['days: Invalid input: expected number, received string'] });
  });

  it('validateLenient with TypeBox: defaults, unknown keys dropped and lossless conversion (CompiledSchema.coerce)', async () => {
    const check = new SchemaCheck(Type.Object({ n: Type.Integer(), unit: Type.String({ default: 'c' }) }), { label });
    const valid = { n: 1, unit: 'f' };
    const result = await check.validateLenient(valid);
    expect(result.ok && result.value).toBe(valid);
    expect(await check.validateLenient({ n: '2', extra: true })).toEqual({ ok: true, value: { n: 2, unit: 'c' } });
    expect(await check.validateLenient({ n: '2.5' })).toEqual({ ok: false, problems: ['n: must be integer'] });
  });

  it('a TypeBox schema keeps its compiled check; a bad one is a ConfigError naming the owner', async () => {
    const check = new SchemaCheck(Type.Object({ n: Type.Integer() }), { label });
    expect(check.compiled).toBeUndefined();
    expect(await check.validate({ n: 1 })).toEqual({ ok: true, value: { n: 1 } });
    expect(check.compiled).toBeDefined();
    expect(check.validate({ n: 'x' })).toEqual({ ok: false, problems: ['n: must be integer'] });
    expect(() => new SchemaCheck(Type.String({ pattern: '(' }), { label })).toThrow(/^tool "t": the parameters schema does not compile: /);
    expect(() => new SchemaCheck(null as never, { label })).toThrow(
      'tool "t": the parameters schema must be a TypeBox schema (Type.Object({...})) or a Standard JSON Schema (zod 4, valibot, arktype), got null.',
    );
  });
});

describe('#26 a schema library without JSON Schema output is a ConfigError naming the fix', () => {
  it('valibot without toStandardJsonSchema()', () => {
    const error = catchError(() => new SchemaCheck(v.object({ city: v.string() }) as never, { label }));
    expect(isAdkitError(error) && error.code).toBe('INVALID_CONFIG');
    expect(error.message).toBe(
      'tool "t": the parameters schema: the valibot schema has no JSON Schema output (~standard.jsonSchema), and the model must be given one. Wrap it: toStandardJsonSchema(schema) from @valibot/to-json-schema (valibot ≥ 1.2).',
    );
  });

  it('another library with validate only', () => {
    const plain = { '~standard': { version: 1, vendor: 'other', validate: (value: unknown) => ({ value }) } };
    expect(() => new SchemaCheck(plain as never, { label })).toThrow(
      'tool "t": the parameters schema: the other schema has no JSON Schema output (~standard.jsonSchema), and the model must be given one. Use a library version that implements Standard JSON Schema (zod ≥ 4.2, arktype ≥ 2.1.28, valibot ≥ 1.2 through toStandardJsonSchema()), or a TypeBox schema.',
    );
  });

  it('JSON Schema output without validate; a conversion the library refuses (a zod transform on the output side)', () => {
    const noValidate = { '~standard': { version: 1, vendor: 'x', jsonSchema: { input: () => ({}), output: () => ({}) } } };
    expect(() => new SchemaCheck(noValidate as never, { label })).toThrow(/has no ~standard\.validate; pass the schema itself/);
    const transformed = z.object({ n: z.string().transform((s) => s.length) });
    expect(() => new SchemaCheck(transformed, { label: 'tool "t": the response schema', declare: 'output' })).toThrow(
      'tool "t": the response schema: the zod schema cannot be described as JSON Schema (Transforms cannot be represented in JSON Schema). The model is given a JSON Schema of the result after validation: leave transforms out of a response schema, or use only what JSON Schema can express, or a TypeBox schema.',
    );
    // The input side of the same schema is fine: the model sends a string.
    expect(new SchemaCheck(transformed, { label }).jsonSchema.properties).toEqual({ n: { type: 'string' } });
  });

  it('a ~standard getter that throws, a converter returning a non-object', () => {
    const throwing = Object.defineProperty({}, '~standard', { get: () => { throw new Error('boom'); } });
    expect(() => new SchemaCheck(throwing as never, { label })).toThrow('tool "t": the parameters schema: reading its ~standard properties threw: boom');
    const list = handWritten(() => ({ value: 1 }), [] as never);
    expect(() => new SchemaCheck(list, { label })).toThrow('tool "t": the parameters schema: its JSON Schema is an array, not an object.');
  });
});

describe('#26 attacker schemas', () => {
  it('validate that throws rejects with a message naming the schema', () => {
    const check = new SchemaCheck(handWritten(() => { throw new Error('kaput'); }), { label });
    expect(() => check.validate({})).toThrow("tool \"t\": the parameters schema: the hand schema's validate() threw: kaput");
  });

  it('validate that never settles is given up on when the signal aborts', async () => {
    const check = new SchemaCheck(handWritten(() => new Promise(() => {})), { label });
    const controller = new AbortController();
    const pending = check.validate({}, controller.signal);
    controller.abort(new Error('run cancelled'));
    await expect(pending).rejects.toThrow('run cancelled');
    const already = new SchemaCheck(handWritten(() => new Promise(() => {})), { label }).validate({}, AbortSignal.abort(new Error('gone')));
    await expect(already).rejects.toThrow('gone');
  });

  it('validate that mutates its input cannot change the caller\'s value', async () => {
    const check = new SchemaCheck(
      handWritten((value) => {
        const record = value as { city: string; nested: { n: number } };
        record.city = 'HACKED';
        record.nested.n = -1;
        return { value: record };
      }),
      { label },
    );
    const args = { city: 'Oslo', nested: { n: 1 } };
    const result = await check.validate(args);
    expect(args).toEqual({ city: 'Oslo', nested: { n: 1 } });
    expect(result).toEqual({ ok: true, value: { city: 'HACKED', nested: { n: -1 } } });
  });

  it('a 10 MB issue list (and a 10 MB message, a 100,000-segment path) gives at most 8 short lines', async () => {
    const huge = 'x'.repeat(10_000_000);
    const issues = Array.from({ length: 200_000 }, (_, i) => ({ message: `${i} ${huge.slice(0, 50)}`, path: [`f${i}`] }));
    issues.unshift({ message: huge, path: Array.from({ length: 100_000 }, () => 'deep') });
    const check = new SchemaCheck(handWritten(() => ({ issues })), { label });
    const problems = await problemsOf(check, {});
    expect(problems).toHaveLength(8);
    for (const line of problems) expect(line.length).toBeLessThanOrEqual(300);
    expect(problems[0]).toMatch(/^deep\.deep(\.deep)+…: x+…$/);
    expect(problems[1]).toBe(`f0: 0 ${'x'.repeat(50)}`);
  });

  it('nonsense answers: not an object, issues that are not issues, a throwing getter, a rejecting promise', async () => {
    expect(() => new SchemaCheck(handWritten(() => 42), { label }).validate({})).toThrow(
      "tool \"t\": the parameters schema: the hand schema's validate() returned number, not {value} or {issues}.",
    );
    expect(await problemsOf(new SchemaCheck(handWritten(() => ({ issues: 'lots' })), { label }), {})).toEqual(['(root): the value is invalid']);
    expect(await problemsOf(new SchemaCheck(handWritten(() => ({ issues: [null, 7, { path: [{ key: Symbol('s') }] }] })), { label }), {})).toEqual([
      '["Symbol(s)"]: is invalid',
    ]);
    const getter = Object.defineProperty({}, 'issues', { get: () => { throw new Error('trap'); } });
    expect(() => new SchemaCheck(handWritten(() => getter), { label }).validate({})).toThrow("validate() failed: trap");
    await expect(new SchemaCheck(handWritten(() => Promise.reject(new Error('later'))), { label }).validate({})).rejects.toThrow(
      "tool \"t\": the parameters schema: the hand schema's validate() failed: later",
    );
    expect(formatStandardIssues(undefined)).toEqual(['(root): the value is invalid']);
  });
});

describe('#26 LlmAgent inputSchema / outputSchema take Standard JSON Schemas', () => {
  const answer = z.object({ city: z.string(), celsius: z.number().transform((c) => Math.round(c)) });

  it('without tools the request asks for the schema\'s JSON Schema; outputKey saves the output value', async () => {
    const model = new ScriptedModel([textResponse('{"city":"Oslo","celsius":20.6}')]);
    const agent = new LlmAgent({ name: 'a', model, outputSchema: answer, outputKey: 'out' });
    const { events, runner, sessionId } = await runOnce(agent, 'q');
    expect(model.requests[0]!.config.responseJsonSchema).toEqual(new SchemaCheck(answer, { label }).jsonSchema);
    expect(model.requests[0]!.config.responseJsonSchema!.$schema).toBeUndefined();
    expect(events.at(-1)!.actions.stateDelta).toEqual({ out: { city: 'Oslo', celsius: 21 } });
    const session = await runner.sessionService.getSession({ appName: 'test', userId: 'u', sessionId });
    expect(session!.state.out).toEqual({ city: 'Oslo', celsius: 21 });
  });

  it('an answer that does not match is an INVALID_OUTPUT error in path: message form', async () => {
    const model = new ScriptedModel([textResponse('{"city":7,"celsius":1}')]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, outputSchema: answer, outputKey: 'out' }), 'q');
    expect(events.at(-1)!.errorCode).toBe('INVALID_OUTPUT');
    expect(events.at(-1)!.errorMessage).toBe(
      'Agent "a" answered with output that does not match its outputSchema: city: Invalid input: expected string, received number',
    );
  });

  it('with tools, set_model_response is declared with the JSON Schema and checks through validate', async () => {
    const noop = { name: 'noop', description: 'n', declaration: () => ({ name: 'noop' }), run: async () => ({}) };
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'set_model_response', args: { city: 'Oslo' } }]),
      functionCallResponse([{ name: 'set_model_response', args: { city: 'Oslo', celsius: 3.4 } }]),
    ]);
    const agent = new LlmAgent({ name: 'a', model, outputSchema: answer, outputKey: 'out', tools: [noop] });
    const { events } = await runOnce(agent, 'q');
    const declared = model.requests[0]!.config.tools![0]!.functionDeclarations!.find((d) => d.name === 'set_model_response')!;
    expect(declared.parametersJsonSchema).toEqual(new SchemaCheck(answer, { label }).jsonSchema);
    const responses = events.flatMap((e) => e.content?.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse.response] : []));
    expect(responses[0]).toEqual({ error: 'invalid output schema: celsius: Invalid input: expected number, received undefined' });
    expect(events.at(-1)!.actions.stateDelta).toEqual({ out: { city: 'Oslo', celsius: 3 } });
  });

  it('an output schema whose validate never settles cannot hold the run past its signal', async () => {
    const stuck = handWritten(() => new Promise(() => {}), { type: 'object' });
    const model = new ScriptedModel([textResponse('{}')]);
    const controller = new AbortController();
    const run = runOnce(new LlmAgent({ name: 'a', model, outputSchema: stuck, outputKey: 'out' }), 'q', { signal: controller.signal });
    await waitFor(() => model.requests.length === 1);
    controller.abort();
    const { events } = await run;
    expect(events.some((e) => e.actions.stateDelta.out !== undefined)).toBe(false);
  });

  it('bad schemas fail at construction with the agent named', () => {
    expect(() => new LlmAgent({ name: 'a', outputSchema: v.object({}) as never })).toThrow(/^LlmAgent "a": outputSchema: the valibot schema has no JSON Schema output/);
    expect(() => new LlmAgent({ name: 'a', inputSchema: v.object({}) as never })).toThrow(/^LlmAgent "a": inputSchema: the valibot schema has no JSON Schema output/);
    expect(new LlmAgent({ name: 'a', inputSchema: zodInput }).inputSchemaCheck!.jsonSchema.required).toEqual(['city']);
  });
});

function catchError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  if (!condition()) throw new Error('condition never held');
}
