import { withResponseParts } from '@adkit/flow';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

const chart = { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==' } };

export const salesChart = functionTool({
  name: 'sales_chart',
  description: 'The sales of a year, with a chart.',
  parameters: Type.Object({ year: Type.Integer() }),
  execute: ({ year }) => withResponseParts({ year, months: [3, 5, 8], customer: 'ACME GmbH' }, [chart]),
  // The model gets the numbers and the chart, not the customer's name; the event keeps it all.
  toModelOutput: ({ year, months }) => withResponseParts({ year, months }, [chart]),
});
