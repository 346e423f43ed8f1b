import { serveDevUi } from '@adkit/dev-ui';
import { LlmAgent, type LlmRequest } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

const bookTrip = functionTool({
  name: 'book_trip',
  description: 'Books a trip to a city.',
  parameters: Type.Object({ city: Type.String() }),
  requireConfirmation: true, // the page shows the call as a card to approve or reject
  execute: ({ city }) => ({ booked: city, reference: `BK-${city.toUpperCase()}` }),
});
// Offline: each message books a trip to the city it names, then the model reports the result.
const reply = (request: LlmRequest) => {
  const part = request.contents.at(-1)!.parts![0]!;
  if (part.functionResponse) return textResponse(`Result: ${JSON.stringify(part.functionResponse.response)}`);
  return functionCallResponse([{ name: 'book_trip', args: { city: part.text ?? '' } }]);
};
const agent = new LlmAgent({ name: 'travel', model: new ScriptedModel(Array(1000).fill(reply)), tools: [bookTrip] });

const devUi = await serveDevUi({ agents: [agent], port: Number(process.env.PORT ?? 8000) });
console.log(`adkit dev UI on ${devUi.url}`);
process.once('SIGINT', () => void devUi.close()); // Ctrl+C cancels runs and stops listening
