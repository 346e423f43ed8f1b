import { functionTool } from '@adkit/function-tool';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';

// valibot (≥ 1.2): wrap the schema in toStandardJsonSchema() so it describes itself as JSON Schema.
export const bookTableValibot = functionTool({
  name: 'book_table',
  description: 'Books a table at a restaurant.',
  parameters: toStandardJsonSchema(
    v.object({
      restaurant: v.pipe(v.string(), v.minLength(1), v.description('The restaurant, e.g. "Chez Nous"')),
      party: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(12)), 2),
      time: v.pipe(v.string(), v.isoTimestamp(), v.description('When, e.g. "2026-12-24T19:30:00Z"')),
      notes: v.optional(v.pipe(v.string(), v.maxLength(200))),
    }),
  ),
  execute: ({ restaurant, party, time }) => ({ booked: `${restaurant}, ${party} people, ${time}` }),
});
