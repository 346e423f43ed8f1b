// #26: functionTool and streamingFunctionTool take zod 4, valibot and arktype (Standard JSON
// Schema) beside TypeBox: the declaration from `~standard.jsonSchema.input` without `$schema`,
// validation through `~standard.validate` (execute gets the output: transforms, defaults,
// refinements), the same `path: message` error for the model, lenient conversion, async
// validators, responses and confirmation payload schemas. Attacker schemas tried: validate that
// throws, never settles (bounded by the tool's timeout), mutates its input, reports 10 MB of issues.
import { getFunctionResponses, LlmAgent, type Event, type StandardJsonSchema } from '@adkit/flow';
import { createToolContext, functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { isToolError, type ToolError } from '@adkit/tool';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import Type from 'typebox';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { functionTool, streamingFunctionTool } from '../src/index.js';
import { session } from './support.js';

const ctx = createToolContext();

const schemas = {
  zod: z.object({ city: z.string().min(1), days: z.number().int().min(1).max(14).default(3) }),
  valibot: toStandardJsonSchema(v.object({ city: v.pipe(v.string(), v.minLength(1)), days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(14)), 3) })),
  arktype: type({ city: 'string > 0', days: '1 <= number.integer <= 14 = 3' }),
};

function weather<S extends (typeof schemas)[keyof typeof schemas]>(parameters: S) {
  const received: unknown[] = [];
  const tool = functionTool({
    name: 'get_weather',
    description: 'The forecast for a city.',
    parameters,
    execute: (args) => {
      received.push(args);
      return { ok: true };
    },
  });
  return { tool, received };
}

async function rejection(run: Promise<unknown>): Promise<ToolError> {
  const error = await run.then(() => undefined, (thrown: unknown) => thrown);
  expect(isToolError(error)).toBe(true);
  return error as ToolError;
}

function handWritten(validate: (value: unknown) => unknown): StandardJsonSchema<{ city: string }> {
  const json = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
  return {
    '~standard': { version: 1, vendor: 'hand', validate: validate as never, jsonSchema: { input: () => json, output: () => json } },
  } as StandardJsonSchema<{ city: string }>;
}

describe('#26 the same tool in zod, valibot and arktype', () => {
  for (const [library, schema] of Object.entries(schemas)) {
    it(`FT-3 ${library}: declares the library's JSON Schema, without $schema`, () => {
      const declaration = weather(schema).tool.declaration();
      expect(declaration.parametersJsonSchema!.$schema).toBeUndefined();
      expect(declaration.parametersJsonSchema).toMatchObject({
        type: 'object',
        properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1, maximum: 14 } },
        required: ['city'],
      });
    });

    it(`FT-4 ${library}: execute gets the validated output (the default filled in)`, async () => {
      const { tool, received } = weather(schema);
      expect(await tool.run(ctx, { city: 'Oslo' })).toEqual({ ok: true });
      expect(received).toEqual([{ city: 'Oslo', days: 3 }]);
    });

    it(`FT-4 ${library}: lenient conversion: "4" for an integer becomes 4 (lossless only)`, async () => {
      const { tool, received } = weather(schema);
      await tool.run(ctx, { city: 'Oslo', days: '4' });
      expect(received).toEqual([{ city: 'Oslo', days: 4 }]);
      const error = await rejection(tool.run(ctx, { city: 'Oslo', days: '4.5' }));
      expect(error.code).toBe('INVALID_ARGUMENTS');
    });
  }

  it('FT-4: bad arguments reach the model in the path: message form, with the expected fields', async () => {
    const zod = await rejection(weather(schemas.zod).tool.run(ctx, { city: '', days: 20 }));
    expect(zod.message).toBe(
      'Invalid arguments for tool "get_weather": city: Too small: expected string to have >=1 characters; days: Too big: expected number to be <=14. ' +
        'Expected fields: city (string, required), days (integer, optional, default 3). Correct the arguments and call the tool again.',
    );
    expect(zod.problems).toEqual(['city: Too small: expected string to have >=1 characters', 'days: Too big: expected number to be <=14']);
    const ark = await rejection(weather(schemas.arktype).tool.run(ctx, {}));
    expect(ark.problems).toEqual(['city: must be a string (was missing)']);
    const valibot = await rejection(weather(schemas.valibot).tool.run(ctx, { city: [] }));
    expect(valibot.problems).toEqual(['city: Invalid type: Expected string but received Array']);
  });

  it('FT-4: zod transforms and refinements apply; unknown keys follow the library (z.object strips, z.strictObject refuses)', async () => {
    const received: unknown[] = [];
    const tool = functionTool({
      name: 'shout',
      description: 'Shouts.',
      parameters: z.object({ text: z.string().transform((s) => s.toUpperCase()), n: z.number().refine((n) => n % 2 === 0, 'must be even') }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string; n: number }>();
        received.push(args);
        return undefined;
      },
    });
    await tool.run(ctx, { text: 'hi', n: 2, extra: true });
    expect(received).toEqual([{ text: 'HI', n: 2 }]);
    expect((await rejection(tool.run(ctx, { text: 'hi', n: 3 }))).problems).toEqual(['n: must be even']);
    const strict = functionTool({ name: 'strict', description: 's', parameters: z.strictObject({ a: z.string() }), execute: () => undefined });
    expect((await rejection(strict.run(ctx, { a: 'x', b: 1 }))).problems).toEqual(['(root): Unrecognized key: "b"']);
  });

  it('an async validator works (an async zod refinement)', async () => {
    const tool = functionTool({
      name: 'lookup',
      description: 'l',
      parameters: z.object({ code: z.string().refine(async (code) => code === 'ok', 'unknown code') }),
      execute: ({ code }) => ({ code }),
    });
    expect(await tool.run(ctx, { code: 'ok' })).toEqual({ code: 'ok' });
    expect((await rejection(tool.run(ctx, { code: 'no' }))).problems).toEqual(['code: unknown code']);
  });

  it("a validator that never settles gives up when the call's signal aborts, for the arguments and for the result", async () => {
    const stuck = handWritten(() => new Promise(() => {}));
    const tools = [
      functionTool({ name: 'stuck_args', description: 's', parameters: stuck, execute: () => ({}) }),
      functionTool({ name: 'stuck_result', description: 's', parameters: Type.Object({}), response: stuck, execute: () => ({ city: 'Oslo' }) }),
    ];
    for (const tool of tools) {
      const controller = new AbortController();
      const run = tool.run(createToolContext({ signal: controller.signal }), { city: 'Oslo' });
      controller.abort(new Error(`${tool.name} cancelled`));
      await expect(run).rejects.toThrow(`${tool.name} cancelled`);
    }
  });

  it('response: declared from jsonSchema.output, checked by validate, the model gets the output', async () => {
    const tool = functionTool({
      name: 'temp',
      description: 't',
      parameters: z.object({}),
      response: z.object({ celsius: z.number(), at: z.string().default('now') }),
      execute: () => ({ celsius: 21 }),
    });
    expect(tool.declaration().responseJsonSchema).toEqual({
      type: 'object',
      properties: { celsius: { type: 'number' }, at: { type: 'string', default: 'now' } },
      required: ['celsius', 'at'],
      additionalProperties: false,
    });
    expect(await tool.run(ctx, {})).toEqual({ celsius: 21, at: 'now' });
    const wrong = functionTool({ name: 'w', description: 'w', parameters: z.object({}), response: z.object({ celsius: z.number() }), execute: () => ({ celsius: 'hot' }) as never });
    const error = await rejection(wrong.run(ctx, {}));
    expect(error.code).toBe('INVALID_RESULT');
    expect(error.message).toBe('Tool "w" returned a result that does not match its response schema: celsius: Invalid input: expected number, received string.');
  });

  it('streamingFunctionTool takes a Standard Schema too', async () => {
    const tool = streamingFunctionTool({
      name: 'count',
      description: 'c',
      parameters: z.object({ n: z.number().int().max(5) }),
      async *execute({ n }) {
        for (let i = n; i > 0; i--) yield String(i);
      },
    });
    const chunks: string[] = [];
    for await (const chunk of tool.runStream(ctx, { n: '3' })) chunks.push(chunk);
    expect(chunks).toEqual(['3', '2', '1']);
    const iterator = tool.runStream(ctx, { n: 9 })[Symbol.asyncIterator]();
    expect((await rejection(iterator.next())).problems).toEqual(['n: Too big: expected number to be <=5']);
  });

  it('HC-2: a zod payload schema refuses a bad approval before the tool runs', async () => {
    const ran: unknown[] = [];
    const tool = functionTool({
      name: 'vacation',
      description: 'v',
      parameters: z.object({ days: z.number() }),
      requireConfirmation: { payloadSchema: z.object({ days_approved: z.number().int().min(0) }) },
      execute: (args) => {
        ran.push(args);
        return { ok: true };
      },
    });
    const approved = (payload: unknown) =>
      createToolContext({ functionCallId: 'c1', functionCall: { id: 'c1', name: 'vacation', args: { days: 2 } }, toolConfirmation: { confirmed: true, payload } });
    const error = await rejection(tool.run(approved({ days_approved: 'two' }), { days: 2 }));
    expect(error.code).toBe('INVALID_CONFIRMATION_PAYLOAD');
    expect(error.message).toContain('days_approved: Invalid input: expected number, received string');
    expect(ran).toEqual([]);
    expect(await tool.run(approved({ days_approved: 2 }), { days: 2 })).toEqual({ ok: true });
  });

  it('FT-1: schemas adkit cannot use fail at construction, naming the fix', () => {
    const make = (parameters: unknown, response?: unknown) => () =>
      functionTool({ name: 't', description: 'd', parameters: parameters as never, response: response as undefined, execute: () => undefined });
    expect(make(v.object({ a: v.string() }))).toThrow(
      'functionTool "t": the parameters schema: the valibot schema has no JSON Schema output (~standard.jsonSchema), and the model must be given one. Wrap it: toStandardJsonSchema(schema) from @valibot/to-json-schema (valibot ≥ 1.2).',
    );
    expect(make(z.string())).toThrow(
      'functionTool "t": parameters must describe an object (z.object({...}), v.object({...}) or type({...}); an empty one for a tool without arguments), but its JSON Schema has type "string".',
    );
    expect(make(z.object({}), z.object({ n: z.string().transform(Number) }))).toThrow(
      /^functionTool "t": the response schema: the zod schema cannot be described as JSON Schema \(Transforms cannot be represented in JSON Schema\)/,
    );
    expect(() =>
      functionTool({ name: 't', description: 'd', parameters: z.object({}), requireConfirmation: { payloadSchema: v.object({}) as never }, execute: () => undefined }),
    ).toThrow(/^functionTool "t": requireConfirmation\.payloadSchema: the valibot schema has no JSON Schema output/);
  });

  it('TypeBox keeps its path: the valid call is the very same object', async () => {
    const received: unknown[] = [];
    const tool = functionTool({ name: 't', description: 'd', parameters: Type.Object({ a: Type.String() }), execute: (args) => void received.push(args) });
    const args = { a: 'x' };
    await tool.run(ctx, args);
    expect(received[0]).toBe(args);
  });
});

describe('#26 attacker schemas through a real run', () => {
  async function callOnce(tool: ReturnType<typeof functionTool>, args: Record<string, unknown>): Promise<{ events: Event[]; response: Record<string, unknown> }> {
    const model = new ScriptedModel([functionCallResponse([{ name: tool.name, args }]), textResponse('done')]);
    const { send } = await session(new LlmAgent({ name: 'a', model, tools: [tool] }));
    const events = await send('go');
    const response = events.flatMap(getFunctionResponses)[0]!.response as Record<string, unknown>;
    return { events, response };
  }

  it('validate that throws: the model gets an error naming the schema', async () => {
    const tool = functionTool({ name: 'thrower', description: 't', parameters: handWritten(() => { throw new Error('kaput'); }), execute: () => ({}) });
    const { response } = await callOnce(tool, { city: 'x' });
    expect(response).toEqual({ error: 'functionTool "thrower": the parameters schema: the hand schema\'s validate() threw: kaput' });
  });

  it('validate that never settles is bounded by the tool\'s timeout', async () => {
    const tool = functionTool({ name: 'stuck', description: 's', timeoutMs: 50, parameters: handWritten(() => new Promise(() => {})), execute: () => ({}) });
    const { response } = await callOnce(tool, { city: 'x' });
    expect(response).toEqual({ error: 'Tool "stuck" timed out after 50 ms.' });
  });

  it('validate that mutates its input cannot change the call the model made (saved in the session)', async () => {
    const tool = functionTool({
      name: 'mutator',
      description: 'm',
      parameters: handWritten((value) => {
        (value as { city: string }).city = 'HACKED';
        return { value };
      }),
      execute: (args) => ({ saw: args.city }),
    });
    const { events, response } = await callOnce(tool, { city: 'Oslo' });
    expect(response).toEqual({ saw: 'HACKED' });
    const call = events.flatMap((e) => e.content?.parts ?? []).find((p) => p.functionCall)!.functionCall!;
    expect(call.args).toEqual({ city: 'Oslo' });
  });

  it('a 10 MB issue list gives the model a bounded message', async () => {
    const issues = Array.from({ length: 100_000 }, (_, i) => ({ message: 'x'.repeat(100), path: [`f${i}`] }));
    issues.unshift({ message: 'y'.repeat(10_000_000), path: ['city'] });
    const tool = functionTool({ name: 'noisy', description: 'n', parameters: handWritten(() => ({ issues })), execute: () => ({}) });
    const { response } = await callOnce(tool, { city: 'x' });
    const error = response.error as string;
    expect(error.length).toBeLessThan(3_000);
    expect(error.startsWith('Invalid arguments for tool "noisy": city: yyyy')).toBe(true);
    expect(error.split('; ')).toHaveLength(8);
  });
});
