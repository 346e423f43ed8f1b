import { createUserContent, InMemoryRunner, LlmAgent, stringifyContent, type Tool } from '@adkit/flow';
import { functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';

/**
 * Offline: the model books with the party size as a string ("4", converted losslessly), then
 * tries without a time (the tool's error names the field), then answers. Use openai(…) or
 * gemini(…) for real.
 */
export async function bookingExample(tool: Tool): Promise<string[]> {
  const model = new ScriptedModel([
    functionCallResponse([{ name: 'book_table', args: { restaurant: 'Chez Nous', party: '4', time: '2026-12-24T19:30:00Z' } }]),
    functionCallResponse([{ name: 'book_table', args: { restaurant: 'Chez Nous' } }]),
    textResponse('Booked for four on Christmas Eve.'),
  ]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'host', model, tools: [tool] }), autoCreateSession: true });
  const lines: string[] = [];
  for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: createUserContent('A table for 4 at Chez Nous, Christmas Eve 19:30.') }))
    lines.push(`${event.author}: ${stringifyContent(event)}`);
  return lines;
}
