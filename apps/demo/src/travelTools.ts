import { setTimeout as sleep } from 'node:timers/promises';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

/** The demo's weather, by lower-case city name. */
export const WEATHER: Readonly<Record<string, { celsius: number; sky: string }>> = {
  lisbon: { celsius: 21, sky: 'sunny' },
  tokyo: { celsius: 14, sky: 'cloudy' },
  oslo: { celsius: -2, sky: 'snowing' },
  paris: { celsius: 15, sky: 'raining' },
};

/** Weather from a small table, after a pretend network delay. */
export const getWeather = functionTool({
  name: 'get_weather',
  description: 'The current weather in a city.',
  parameters: Type.Object({ city: Type.String({ description: 'City name, e.g. "Lisbon".' }) }),
  execute: async ({ city }, ctx) => {
    await sleep(150, undefined, { signal: ctx.signal });
    const weather = Object.hasOwn(WEATHER, city.toLowerCase()) ? WEATHER[city.toLowerCase()] : undefined;
    if (!weather) throw new Error(`No weather data for "${city}". Known cities: Lisbon, Tokyo, Oslo, Paris.`);
    return { city, ...weather };
  },
});

/** Currency conversion at fixed demo rates. */
export const convertCurrency = functionTool({
  name: 'convert_currency',
  description: 'Converts an amount between USD, EUR and JPY.',
  parameters: Type.Object({
    amount: Type.Number({ minimum: 0 }),
    from: Type.Union([Type.Literal('USD'), Type.Literal('EUR'), Type.Literal('JPY')]),
    to: Type.Union([Type.Literal('USD'), Type.Literal('EUR'), Type.Literal('JPY')]),
  }),
  execute: async ({ amount, from, to }, ctx) => {
    await sleep(150, undefined, { signal: ctx.signal });
    const perUsd = { USD: 1, EUR: 0.92, JPY: 151 } as const;
    return { amount, from, to, converted: Math.round((amount / perUsd[from]) * perUsd[to] * 100) / 100 };
  },
});

/** Books a trip; the user must approve every booking first. */
export const bookTrip = functionTool({
  name: 'book_trip',
  description: 'Books a hotel stay. The user is asked to approve the booking before it is made.',
  parameters: Type.Object({ city: Type.String(), nights: Type.Integer({ minimum: 1, maximum: 30 }) }),
  requireConfirmation: true,
  execute: ({ city, nights }, ctx) => {
    const bookings = ((ctx.state.get('user:bookings') as string[] | undefined) ?? []).slice();
    const reference = `${city.slice(0, 3).toUpperCase()}-${1000 + bookings.length + 1}`;
    ctx.state.set('user:bookings', [...bookings, reference]);
    return { reference, city, nights, status: 'confirmed' };
  },
});
