import { setTimeout as sleep } from 'node:timers/promises';
import { streamingFunctionTool } from '@adkit/function-tool';
import Type from 'typebox';

const SIGHTS: Record<string, readonly string[]> = {
  lisbon: ['the Alfama and a fado bar', 'Belém tower and pastéis de nata', 'a tram ride to Sintra'],
  tokyo: ['Senso-ji at dawn', 'the Tsukiji outer market', 'a day trip to Nikko'],
  oslo: ['the Opera house roof', 'the Viking ship museum', 'a ferry round the fjord islands'],
};
const ANYWHERE = ['the old town on foot', 'the best local market', 'a museum you have never heard of'];

/** Plans a trip day by day; each day reaches the client as it is planned (a streaming tool). */
export const planItinerary = streamingFunctionTool({
  name: 'plan_itinerary',
  description: 'Plans a trip day by day and streams each day as it is ready.',
  parameters: Type.Object({ city: Type.String(), days: Type.Integer({ minimum: 1, maximum: 3 }) }),
  timeoutMs: 10_000,
  async *execute({ city, days }, ctx) {
    const sights = (Object.hasOwn(SIGHTS, city.toLowerCase()) && SIGHTS[city.toLowerCase()]) || ANYWHERE;
    for (let day = 1; day <= days; day++) {
      await sleep(60, undefined, { signal: ctx.signal });
      yield `Day ${day}: ${sights[day - 1]}\n`;
    }
  },
});
