// The README's code is the code of examples/function-tools, and it runs here: the top example,
// the five schema kinds (each declaration asserted), long-running, streaming, state and actions.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { longRunningExample } from '../../../examples/function-tools/src/longRunning.js';
import { bookFlight, currentTime, forecast, searchHotels, setUnits } from '../../../examples/function-tools/src/schemaKinds.js';
import { streamingExample } from '../../../examples/function-tools/src/streaming.js';
import { weatherExample } from '../../../examples/function-tools/src/weather.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const example = (file: string) => readFileSync(new URL(`../../../examples/function-tools/src/${file}`, import.meta.url), 'utf8');
/** The `export const … });` blocks of an example file, with the comment lines above each. */
const definitions = (file: string) => example(file).match(/^(?:\/\/ .*\n)*export const [\s\S]*?^\}\);$/gm) ?? [];

describe('README', () => {
  it('shows examples/function-tools/src/weather.ts verbatim as its first example, and it runs', async () => {
    const first = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(first).toBe(example('weather.ts'));
    expect(await weatherExample()).toEqual([
      'weather: [call get_weather({"city":"Paris"})]',
      'weather: [response get_weather: {"city":"Paris","celsius":21}]',
      'weather: It is 21 °C in Paris.',
    ]);
  });

  it('shows every tool of the examples verbatim', () => {
    const all = ['schemaKinds.ts', 'longRunning.ts', 'streaming.ts', 'stateAndActions.ts'].flatMap(definitions);
    expect(all).toHaveLength(8);
    for (const code of all) expect(readme).toContain(code);
  });

  it('FT-3: the five schema kinds declare what the README prints', () => {
    const declared = [currentTime, setUnits, bookFlight, forecast, searchHotels].map((tool) => tool.declaration());
    expect(declared).toEqual([
      {
        name: 'current_time',
        description: 'The current time as an ISO 8601 string.',
        parametersJsonSchema: { type: 'object', properties: {} },
      },
      {
        name: 'set_units',
        description: 'Chooses the units for temperatures.',
        parametersJsonSchema: { type: 'object', required: ['units'], properties: { units: { enum: ['metric', 'imperial'] } } },
      },
      {
        name: 'book_flight',
        description: 'Books a flight for one passenger.',
        parametersJsonSchema: {
          type: 'object',
          required: ['from', 'to', 'passenger'],
          properties: {
            from: { type: 'string', description: 'IATA code, e.g. "CDG"' },
            to: { type: 'string', description: 'IATA code, e.g. "JFK"' },
            passenger: {
              type: 'object',
              required: ['name', 'age'],
              properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
            },
          },
        },
      },
      {
        name: 'forecast',
        description: 'The weather forecast for the next days.',
        parametersJsonSchema: {
          type: 'object',
          required: ['city', 'days', 'minConfidence'],
          properties: {
            city: { type: 'string' },
            days: { type: 'integer', minimum: 1, maximum: 14 },
            minConfidence: { type: 'number', minimum: 0, maximum: 1 },
          },
        },
      },
      {
        name: 'search_hotels',
        description: 'Finds hotels in a city.',
        parametersJsonSchema: {
          type: 'object',
          required: ['city'],
          properties: {
            city: { type: 'string' },
            maxPrice: { type: 'number', minimum: 0 },
            stars: { type: 'integer', minimum: 1, maximum: 5, default: 3 },
          },
        },
      },
    ]);
    for (const declaration of declared) expect(readme).toContain(`\`\`\`json\n${JSON.stringify(declaration.parametersJsonSchema)}\n\`\`\``);
  });

  it('the five schema kinds run: no parameters, enum, nested object, ranges, optional fields', async () => {
    const { createToolContext } = await import('@adkit/flow/testing');
    const ctx = createToolContext();
    expect((await currentTime.run(ctx, {}))!.result).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await setUnits.run(ctx, { units: 'imperial' })).toEqual({ units: 'imperial' });
    expect(ctx.state.get('user:units')).toBe('imperial');
    expect(await bookFlight.run(ctx, { from: 'CDG', to: 'JFK', passenger: { name: 'Ada', age: 36 } })).toEqual({
      booking: 'CDG-JFK',
      passenger: 'Ada',
    });
    expect(await forecast.run(ctx, { city: 'Oslo', days: 2, minConfidence: 0.5 })).toEqual({
      city: 'Oslo',
      days: [
        { day: 1, celsius: 20 },
        { day: 2, celsius: 20 },
      ],
    });
    expect(await searchHotels.run(ctx, { city: 'Rome' })).toEqual({ city: 'Rome', maxPrice: null, stars: 3 });
  });

  it('the long-running example pauses, then answers the function response', async () => {
    expect(await longRunningExample()).toEqual([
      'helpdesk: [call create_ticket({"summary":"printer on fire"})] (waiting for call-1)',
      'helpdesk: state {"open_ticket":{"summary":"printer on fire","callId":"call-1"}}',
      'helpdesk: Ticket T-7 is resolved: the printer was replaced.',
    ]);
  });

  it('the streaming example reports progress, then the joined result', async () => {
    expect(await streamingExample()).toEqual([
      'launcher: [call countdown({"n":3})]',
      'progress: 3…',
      'progress: 2…',
      'progress: 1…',
      'launcher: [response countdown: {"result":"3…2…1…"}]',
      'launcher: Liftoff!',
    ]);
  });
});
