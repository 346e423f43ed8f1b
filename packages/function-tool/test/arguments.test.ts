// FT-4 step 3: the arguments a handler receives, and the error the model gets when they are bad.
// Bad input tried: a string that is not a number, missing required fields, out-of-range numbers,
// a value outside an enum, a nested field out of range, an array or a string instead of an
// object, more than 8 problems at once, unknown keys (dropped, not an error), values that convert
// only with loss (7.5 or "7.5" for an integer, "" for a number, 1 for a boolean, a string for an array).
import { createToolContext } from '@adkit/flow/testing';
import { isToolError, type ToolError } from '@adkit/tool';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { bookFlight, forecast, setUnits } from '../../../examples/function-tools/src/schemaKinds.js';
import { functionTool } from '../src/index.js';

/** A tool whose handler records what it received. */
function recording<P extends ReturnType<typeof Type.Object>>(parameters: P) {
  const received: unknown[] = [];
  const tool = functionTool({
    name: 'probe',
    description: 'Records its arguments.',
    parameters,
    execute: (args) => {
      received.push(args);
      return { ok: true };
    },
  });
  return { tool, received };
}

async function rejection(run: Promise<unknown>): Promise<ToolError> {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(isToolError(error)).toBe(true);
  return error as ToolError;
}

const ctx = createToolContext();

describe('FT-4: arguments', () => {
  it('FT-4: a valid call reaches the handler as the very same object (no copy, no conversion)', async () => {
    const { tool, received } = recording(Type.Object({ city: Type.String(), days: Type.Integer() }));
    const args = { city: 'Paris', days: 3 };
    await tool.run(ctx, args);
    expect(received[0]).toBe(args);
  });

  it('FT-4: null or missing arguments with an object schema become {}', async () => {
    const { tool, received } = recording(Type.Object({ verbose: Type.Optional(Type.Boolean()) }));
    await tool.run(ctx, null as unknown as Record<string, unknown>);
    await tool.run(ctx, undefined as unknown as Record<string, unknown>);
    expect(received).toEqual([{}, {}]);
  });

  it('FT-4: values are converted when the check fails ("42" → 42, "true" → true), on a copy', async () => {
    const { tool, received } = recording(
      Type.Object({ days: Type.Integer(), metric: Type.Boolean(), ratio: Type.Number(), label: Type.String() }),
    );
    const args = { days: '42', metric: 'true', ratio: '0.5', label: 7 };
    await tool.run(ctx, args);
    expect(received[0]).toEqual({ days: 42, metric: true, ratio: 0.5, label: '7' });
    expect(args).toEqual({ days: '42', metric: 'true', ratio: '0.5', label: 7 });
  });

  it('FT-4/#9: only lossless conversions; anything else is an error naming the field, nested and in arrays', async () => {
    const { tool, received } = recording(
      Type.Object({
        days: Type.Integer(),
        ratio: Type.Number(),
        on: Type.Boolean(),
        stops: Type.Array(Type.Integer()),
        trip: Type.Object({ nights: Type.Integer() }),
      }),
    );
    await tool.run(ctx, { days: '3', ratio: '0.5', on: 'false', stops: ['1', '2'], trip: { nights: '2' } });
    expect(received).toEqual([{ days: 3, ratio: 0.5, on: false, stops: [1, 2], trip: { nights: 2 } }]);
    const error = await rejection(tool.run(ctx, { days: '7.5', ratio: '', on: 1, stops: ['1', 2.5], trip: { nights: true } }));
    expect(error.problems).toEqual([
      'days: must be integer',
      'ratio: must be number',
      'on: must be boolean',
      'stops[1]: must be integer',
      'trip.nights: must be integer',
    ]);
    expect((await rejection(tool.run(ctx, { days: 7.5, ratio: true, on: 'yes', stops: '1', trip: {} }))).problems).toEqual([
      'days: must be integer',
      'ratio: must be number',
      'on: must be boolean',
      'stops: must be array',
      'trip.nights: is required',
    ]);
    expect(received).toHaveLength(1);
  });

  it('FT-4: unknown keys are dropped, nested ones too, and the rest arrives intact', async () => {
    const { tool, received } = recording(
      Type.Object({ city: Type.String(), passenger: Type.Object({ name: Type.String() }) }),
    );
    await tool.run(ctx, { city: 'Paris', junk: 1, passenger: { name: 'Ada', seat: '1A' } });
    expect(received[0]).toEqual({ city: 'Paris', passenger: { name: 'Ada' } });
  });

  it('FT-4: a schema that allows extra keys keeps them', async () => {
    const { tool, received } = recording(Type.Object({ city: Type.String() }, { additionalProperties: Type.Number() }));
    const args = { city: 'Paris', population: 2_100_000 };
    await tool.run(ctx, args);
    expect(received[0]).toBe(args);
  });

  it('FT-4: defaults are filled in for absent optional fields', async () => {
    const { tool, received } = recording(
      Type.Object({ city: Type.String(), stars: Type.Optional(Type.Integer({ default: 3 })) }),
    );
    await tool.run(ctx, { city: 'Oslo' });
    await tool.run(ctx, { city: 'Rome', stars: 5 });
    expect(received).toEqual([
      { city: 'Oslo', stars: 3 },
      { city: 'Rome', stars: 5 },
    ]);
  });

  it('FT-4: a value that cannot be converted: the model gets the problem and the expected fields', async () => {
    const error = await rejection(forecast.run(ctx, { city: 'Paris', days: 'soon', minConfidence: 0.5 }));
    expect(error.message).toBe(
      'Invalid arguments for tool "forecast": days: must be integer. Expected fields: city (string, required), days (integer, required), minConfidence (number, required). Correct the arguments and call the tool again.',
    );
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.toolName).toBe('forecast');
    expect(error.problems).toEqual(['days: must be integer']);
  });

  it('FT-4: missing required fields are each named', async () => {
    const error = await rejection(forecast.run(ctx, { days: 3 }));
    expect(error.message).toBe(
      'Invalid arguments for tool "forecast": city: is required; minConfidence: is required. Expected fields: city (string, required), days (integer, required), minConfidence (number, required). Correct the arguments and call the tool again.',
    );
  });

  it('FT-4: out-of-range numbers (after conversion), enums and nested fields', async () => {
    expect((await rejection(forecast.run(ctx, { city: 'P', days: 30, minConfidence: '2' }))).problems).toEqual([
      'days: must be <= 14',
      'minConfidence: must be <= 1',
    ]);
    expect((await rejection(setUnits.run(ctx, { units: 'kelvin' }))).message).toBe(
      'Invalid arguments for tool "set_units": units: must be "metric" or "imperial". Expected fields: units ("metric" | "imperial", required). Correct the arguments and call the tool again.',
    );
    expect(
      (await rejection(bookFlight.run(ctx, { from: 'CDG', to: 'JFK', passenger: { name: 'Ada', age: -1 } }))).problems,
    ).toEqual(['passenger.age: must be >= 0']);
  });

  it('FT-4: arguments that are not an object', async () => {
    for (const args of [[1, 2], 'Paris', 42])
      expect((await rejection(forecast.run(ctx, args as unknown as Record<string, unknown>))).problems).toEqual([
        '(root): must be object',
      ]);
  });

  it('FT-4: at most 8 problems are listed', async () => {
    const fields = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, Type.Integer()]));
    const { tool, received } = recording(Type.Object(fields));
    const error = await rejection(tool.run(ctx, Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, 'x']))));
    expect(error.problems).toEqual(Array.from({ length: 8 }, (_, i) => `f${i}: must be integer`));
    expect(received).toEqual([]);
  });

  it('FT-4: a tool without arguments says so', async () => {
    const tool = functionTool({ name: 'now', description: 'Now.', parameters: Type.Object({}, { additionalProperties: false }), execute: () => 'now' });
    expect(await tool.run(ctx, { extra: true })).toEqual({ result: 'now' });
    expect((await rejection(tool.run(ctx, 'soon' as unknown as Record<string, unknown>))).message).toBe(
      'Invalid arguments for tool "now": (root): must be object. The tool takes no arguments; call it with {}.',
    );
    const strict = functionTool({
      name: 'ping',
      description: 'Ping.',
      parameters: Type.Object({ n: Type.Optional(Type.Integer()) }),
      execute: () => 'pong',
    });
    expect((await rejection(strict.run(ctx, { n: 'x' }))).message).toBe(
      'Invalid arguments for tool "ping": n: must be integer. Expected fields: n (integer, optional). Correct the arguments and call the tool again.',
    );
  });
});
