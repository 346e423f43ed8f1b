import { InMemoryRunner, LlmAgent, createUserContent, stringifyContent, type RunnableTool } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';

const getTime: RunnableTool = {
  name: 'get_time',
  description: 'The current time in a city.',
  declaration: () => ({ name: 'get_time', description: 'The current time in a city.', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } }),
  run: async (_ctx, args) => ({ city: args.city, time: '10:30' }),
};
// Any Model works here: openai('gpt-4.1-mini'), gemini('gemini-2.5-flash'), or a script for tests.
const model = new ScriptedModel([functionCallResponse([{ name: 'get_time', args: { city: 'Oslo' } }]), textResponse('It is 10:30 in Oslo.')]);
const agent = new LlmAgent({ name: 'clock', model, instruction: 'Answer briefly.', tools: [getTime] });

const runner = new InMemoryRunner({ agent, appName: 'demo', autoCreateSession: true });
for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: createUserContent('Time in Oslo?') }))
  if (event.errorCode) {
    console.error(`${event.author}: ${event.errorCode}: ${event.errorMessage}`); // e.g. the model could not be reached
    process.exitCode = 1;
  } else console.log(`${event.author}: ${stringifyContent(event)}`);
