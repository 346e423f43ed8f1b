import type { FunctionResponse, LlmRequest } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';

/** The function responses in the request's newest content (what the tools just answered). */
function latestResponses(request: LlmRequest): FunctionResponse[] {
  for (let i = request.contents.length - 1; i >= 0; i--) {
    const responses = (request.contents[i]!.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse] : []));
    if (responses.length > 0) return responses;
  }
  return [];
}

/**
 * A scripted stand-in for a real model: it asks for the same tool calls a model would, and words
 * its answers from the tools' actual results, so the demo runs offline with real tools.
 */
export function offlineModel(): ScriptedModel {
  return new ScriptedModel(
    [
      functionCallResponse([
        { name: 'get_weather', args: { city: 'Lisbon' } },
        { name: 'get_weather', args: { city: 'Tokyo' } },
        { name: 'convert_currency', args: { amount: 200, from: 'USD', to: 'EUR' } },
      ]),
      (request) => {
        const lines = latestResponses(request).map(({ name, response = {} }) =>
          name === 'get_weather'
            ? `${response.city} is ${response.celsius}°C and ${response.sky}.`
            : `${response.amount} ${response.from} is ${response.converted} ${response.to}.`,
        );
        return textResponse(lines.join(' '));
      },
      functionCallResponse([{ name: 'book_trip', args: { city: 'Lisbon', nights: 3 } }]),
      (request) => {
        const booking = latestResponses(request).find((r) => r.name === 'book_trip')?.response ?? {};
        return textResponse(
          booking.error
            ? `I could not book it: ${booking.error}`
            : `Booked ${booking.nights} nights in ${booking.city}; your reference is ${booking.reference}.`,
        );
      },
    ],
    { model: 'offline-script' },
  );
}
