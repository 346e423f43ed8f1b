import { setTimeout as sleep } from 'node:timers/promises';
import { InMemoryRunner, LlmAgent, createUserContent, stringifyContent } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { streamingFunctionTool } from '@adkit/function-tool';
import Type from 'typebox';

const SIGHTS = ['the Alfama', 'Belém tower', 'a tram to Sintra'];

// Each chunk reaches the client as it comes (a progress event); the model gets them joined.
const planItinerary = streamingFunctionTool({
  name: 'plan_itinerary',
  description: 'Plans a trip day by day.',
  parameters: Type.Object({ city: Type.String(), days: Type.Integer({ minimum: 1, maximum: 3 }) }),
  async *execute({ city, days }, ctx) {
    for (let day = 1; day <= days; day++) {
      await sleep(20, undefined, { signal: ctx.signal }); // real work waits here; a cancelled run stops it
      yield `Day ${day} in ${city}: ${SIGHTS[day - 1]}.\n`;
    }
  },
});
const model = new ScriptedModel([
  functionCallResponse([{ name: 'plan_itinerary', args: { city: 'Lisbon', days: 3 } }]),
  (request) => textResponse(`Your plan:\n${request.contents.at(-1)!.parts![0]!.functionResponse!.response!.result}`),
]);
const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'planner', model, tools: [planItinerary] }), autoCreateSession: true });
for await (const event of runner.runAsync({ userId: 'ann', sessionId: 's1', newMessage: createUserContent('Plan 3 days in Lisbon.') }))
  if (event.errorCode) {
    console.error(`${event.author}: ${event.errorCode}: ${event.errorMessage}`);
    process.exitCode = 1;
  } else if (event.partial) console.log(`  … ${event.toolProgress!.toolName}: ${event.toolProgress!.message!.trim()}`);
  else console.log(stringifyContent(event).trim());
