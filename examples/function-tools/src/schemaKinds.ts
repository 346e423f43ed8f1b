import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

// 1. No parameters.
export const currentTime = functionTool({
  name: 'current_time',
  description: 'The current time as an ISO 8601 string.',
  parameters: Type.Object({}),
  execute: () => new Date().toISOString(), // a string: the model gets {result: "…"}
});

// 2. An enum.
export const setUnits = functionTool({
  name: 'set_units',
  description: 'Chooses the units for temperatures.',
  parameters: Type.Object({ units: Type.Enum(['metric', 'imperial']) }),
  execute: ({ units }, ctx) => {
    ctx.state.set('user:units', units); // remembered across the user's sessions
    return { units };
  },
});

// 3. A nested object.
export const bookFlight = functionTool({
  name: 'book_flight',
  description: 'Books a flight for one passenger.',
  parameters: Type.Object({
    from: Type.String({ description: 'IATA code, e.g. "CDG"' }),
    to: Type.String({ description: 'IATA code, e.g. "JFK"' }),
    passenger: Type.Object({ name: Type.String(), age: Type.Integer({ minimum: 0 }) }),
  }),
  execute: ({ from, to, passenger }) => ({ booking: `${from}-${to}`, passenger: passenger.name }),
});

// 4. Numeric ranges.
export const forecast = functionTool({
  name: 'forecast',
  description: 'The weather forecast for the next days.',
  parameters: Type.Object({
    city: Type.String(),
    days: Type.Integer({ minimum: 1, maximum: 14 }),
    minConfidence: Type.Number({ minimum: 0, maximum: 1 }),
  }),
  execute: ({ city, days }) => ({ city, days: Array.from({ length: days }, (_, i) => ({ day: i + 1, celsius: 20 })) }),
});

// 5. Optional fields (absent keys are left out of `required`; defaults are filled in).
export const searchHotels = functionTool({
  name: 'search_hotels',
  description: 'Finds hotels in a city.',
  parameters: Type.Object({
    city: Type.String(),
    maxPrice: Type.Optional(Type.Number({ minimum: 0 })),
    stars: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, default: 3 })),
  }),
  execute: ({ city, maxPrice, stars }) => ({ city, maxPrice: maxPrice ?? null, stars }),
});
