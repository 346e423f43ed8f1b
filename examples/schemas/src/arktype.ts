import { functionTool } from '@adkit/function-tool';
import { type } from 'arktype';

// arktype (≥ 2.1.28): a type() is a Standard JSON Schema as it is.
export const bookTableArktype = functionTool({
  name: 'book_table',
  description: 'Books a table at a restaurant.',
  parameters: type({
    restaurant: type('string > 0').describe('the restaurant, e.g. "Chez Nous"'),
    party: '1 <= number.integer <= 12 = 2',
    time: type('string.date.iso').describe('when, e.g. "2026-12-24T19:30:00Z"'),
    'notes?': 'string <= 200',
  }),
  execute: ({ restaurant, party, time }) => ({ booked: `${restaurant}, ${party} people, ${time}` }),
});
