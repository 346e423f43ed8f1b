// Every example runs offline and prints what it should; the five schema kinds run on their own.
// (@adkit/function-tool's README test checks that its README shows these files verbatim.)
import { createToolContext } from '@adkit/flow/testing';
import { runExample } from '@adkit/test-support';
import { describe, expect, it } from 'vitest';
import { bookFlight, currentTime, forecast, searchHotels, setUnits } from '../src/schemaKinds.js';
import { stateAndActionsExample } from '../src/stateAndActions.js';

describe('examples/function-tools', () => {
  it('FT-4, FT-6, FT-7: main prints each example: weather, long-running, streaming, state and actions', async () => {
    expect(await runExample(new URL('../src/main.ts', import.meta.url))).toEqual({
      stdout: [
        '## weather',
        '  weather: [call get_weather({"city":"Paris"})]',
        '  weather: [response get_weather: {"city":"Paris","celsius":21}]',
        '  weather: It is 21 °C in Paris.',
        '## long-running',
        '  helpdesk: [call create_ticket({"summary":"printer on fire"})] (waiting for call-1)',
        '  helpdesk: state {"open_ticket":{"summary":"printer on fire","callId":"call-1"}}',
        '  helpdesk: Ticket T-7 is resolved: the printer was replaced.',
        '## streaming',
        '  launcher: [call countdown({"n":3})]',
        '  progress: 3…',
        '  progress: 2…',
        '  progress: 1…',
        '  launcher: [response countdown: {"result":"3…2…1…"}]',
        '  launcher: Liftoff!',
        '## state and actions',
        '  shop: [call add_to_cart({"item":"apple","quantity":"3"})]',
        '  shop: [response add_to_cart: {"cart":{"apple":3}}]',
      ],
      stderr: [],
      exitCode: 0,
    });
  });

  it('FT-4: state and actions: the converted quantity is saved in the session', async () => {
    expect((await stateAndActionsExample()).state).toEqual({ cart: { apple: 3 } });
  });

  it('FT-4, FT-5: the five schema kinds run: no parameters, enum, nested object, ranges, optional fields', async () => {
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
});
