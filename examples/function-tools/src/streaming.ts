import { createUserContent, InMemoryRunner, LlmAgent, stringifyContent } from '@adkit/flow';
import { functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { streamingFunctionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { setTimeout as sleep } from 'node:timers/promises';

// Streaming: each chunk reaches the client as a partial progress event; the model gets them
// joined as {result}. The handler stops when ctx.signal aborts (cancelled run or timeout).
export const countdown = streamingFunctionTool({
  name: 'countdown',
  description: 'Counts down from n to 1.',
  parameters: Type.Object({ n: Type.Integer({ minimum: 1, maximum: 10 }) }),
  timeoutMs: 5_000,
  async *execute({ n }, ctx) {
    for (let i = n; i > 0; i--) {
      yield `${i}…`;
      await sleep(1, undefined, { signal: ctx.signal });
    }
  },
});

export async function streamingExample(): Promise<string[]> {
  const model = new ScriptedModel([functionCallResponse([{ name: 'countdown', args: { n: 3 } }]), textResponse('Liftoff!')]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'launcher', model, tools: [countdown] }), autoCreateSession: true });
  const lines: string[] = [];
  for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: createUserContent('Count down from 3.') }))
    lines.push(event.toolProgress ? `progress: ${event.toolProgress.message}` : `${event.author}: ${stringifyContent(event)}`);
  return lines;
}
