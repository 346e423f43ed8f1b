import { createUserContent, InMemoryRunner, LlmAgent, stringifyContent } from '@adkit/flow';
import { functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

export const getWeather = functionTool({
  name: 'get_weather',
  description: 'The current weather in a city.',
  parameters: Type.Object({ city: Type.String({ description: 'A city, e.g. "Paris"' }) }),
  execute: async ({ city }) => ({ city, celsius: city === 'Paris' ? 21 : 15 }),
});

/** Offline: a scripted model calls the tool, then answers. Use openai(…) or gemini(…) for real. */
export async function weatherExample(): Promise<string[]> {
  const model = new ScriptedModel([
    functionCallResponse([{ name: 'get_weather', args: { city: 'Paris' } }]),
    textResponse('It is 21 °C in Paris.'),
  ]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'weather', model, tools: [getWeather] }), autoCreateSession: true });
  const lines: string[] = [];
  for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: createUserContent('Weather in Paris?') }))
    lines.push(`${event.author}: ${stringifyContent(event)}`);
  return lines;
}
