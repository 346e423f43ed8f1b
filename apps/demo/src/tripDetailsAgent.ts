import { LlmAgent, type GenerateContentOptions, type LlmRequest, type LlmResponse, type Model } from '@adkit/flow';
import Type from 'typebox';
import { calls, citiesIn, says } from './brainRequest.js';

/** What the trip-details task hands back to the assistant (its `finish_task` parameters). */
export const TRIP_DETAILS = Type.Object({
  destination: Type.String({ description: 'The city the user wants to go to.' }),
  nights: Type.Integer({ minimum: 1, maximum: 30, description: 'How many nights they stay.' }),
});

/**
 * A task agent (`mode: 'task'`): the assistant calls it as a tool, and it talks with the user
 * until it knows where and for how many nights, asking one question at a time; then it calls
 * `finish_task` with both, and the assistant carries on with them. Offline, the trip brain asks.
 */
export function tripDetailsAgent(model: Model | undefined): LlmAgent {
  return new LlmAgent({
    name: 'trip_details',
    description: 'Collects the details of a trip from the user (where to, how many nights), asking what is missing.',
    model: model ?? new TripDetailsBrain(),
    mode: 'task',
    outputSchema: TRIP_DETAILS,
    instruction:
      'You collect the details of a trip. Ask the user one short question at a time until you know the destination city and the number of nights; then call finish_task with both.',
  });
}

/**
 * The offline trip-details task: reads its own conversation (the request, then the user's
 * replies), asks for the city, then for the nights, then finishes with both.
 */
export class TripDetailsBrain implements Model {
  readonly model = 'demo-trip-details';

  async *generateContent(request: LlmRequest, options: GenerateContentOptions): AsyncGenerator<LlmResponse> {
    if (options.signal?.aborted) return;
    yield tripDetailsReply(request);
  }
}

/** The trip brain's move: the first question still open, or `finish_task`. */
export function tripDetailsReply(request: LlmRequest): LlmResponse {
  const said = request.contents
    .filter((content) => content.role === 'user')
    .map((content) => (content.parts ?? []).map((part) => part.text ?? '').join(''))
    .filter(Boolean);
  const [city] = said.flatMap((text) => citiesIn(text));
  if (!city) return says('Where would you like to go? I know Lisbon, Tokyo, Oslo and Paris.');
  // The nights: "3 nights" anywhere, or a bare number in a reply after the question.
  const nights = said.map((text) => /(\d{1,2})\s*nights?\b/i.exec(text)?.[1] ?? (text === said[0] ? undefined : /\b(\d{1,2})\b/.exec(text)?.[1])).find(Boolean);
  const count = nights === undefined ? Number.NaN : Number(nights);
  if (!(count >= 1 && count <= 30)) return says(`How many nights in ${city}?`);
  return calls({ name: 'finish_task', args: { destination: city, nights: count } });
}
