import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

// TypeBox: the compiled fast path (a valid call costs one compiled check).
export const bookTableTypebox = functionTool({
  name: 'book_table',
  description: 'Books a table at a restaurant.',
  parameters: Type.Object({
    restaurant: Type.String({ minLength: 1, description: 'The restaurant, e.g. "Chez Nous"' }),
    party: Type.Optional(Type.Integer({ minimum: 1, maximum: 12, default: 2 })),
    time: Type.String({ format: 'date-time', description: 'When, e.g. "2026-12-24T19:30:00Z"' }),
    notes: Type.Optional(Type.String({ maxLength: 200 })),
  }),
  execute: ({ restaurant, party, time }) => ({ booked: `${restaurant}, ${party} people, ${time}` }),
});
