import { functionTool } from '@adkit/function-tool';
import { z } from 'zod';

// zod 4 (≥ 4.2 implements Standard JSON Schema): the declaration is zod's own JSON Schema, and
// `execute` gets zod's output: the default party size filled in, the notes as given.
export const bookTableZod = functionTool({
  name: 'book_table',
  description: 'Books a table at a restaurant.',
  parameters: z.object({
    restaurant: z.string().min(1).describe('The restaurant, e.g. "Chez Nous"'),
    party: z.number().int().min(1).max(12).default(2),
    time: z.iso.datetime().describe('When, e.g. "2026-12-24T19:30:00Z"'),
    notes: z.string().max(200).optional(),
  }),
  execute: ({ restaurant, party, time }) => ({ booked: `${restaurant}, ${party} people, ${time}` }),
});
