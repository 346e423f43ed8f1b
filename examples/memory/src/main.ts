import { InMemoryMemoryService, InMemorySessionService, LlmAgent, Runner, createUserContent, stringifyContent } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { loadMemory, preloadMemory } from '@adkit/memory-tools';

// A scripted model (offline). On Tuesday it looks "dog" up with load_memory.
const model = new ScriptedModel([
  textResponse('Noted: Rex.'),
  functionCallResponse([{ name: 'load_memory', args: { query: 'dog' } }]),
  textResponse('Your dog is called Rex.'),
]);
const runner = new Runner({
  appName: 'pets',
  agent: new LlmAgent({ name: 'pal', model, tools: [preloadMemory, loadMemory] }),
  sessionService: new InMemorySessionService(),
  memoryService: new InMemoryMemoryService(),
  addSessionsToMemory: true, // each finished session is remembered for the user's next ones
  autoCreateSession: true,
});
const say = async (sessionId: string, text: string) => {
  for await (const event of runner.runAsync({ userId: 'ada', sessionId, newMessage: createUserContent(text) }))
    if (event.errorCode) {
      console.error(`${event.author}: ${event.errorCode}: ${event.errorMessage}`);
      process.exitCode = 1;
    } else if (!event.content?.parts?.[0]?.functionResponse) console.log(`${sessionId}: ${stringifyContent(event)}`);
};

await say('monday', 'My dog is called Rex.');
await say('tuesday', 'What is my dog called?');
// What preload_memory added to Tuesday's first request:
console.log(model.requests[1]!.config.systemInstruction!.parts![0]!.text!.match(/<PAST_CONVERSATIONS>[^]*<\/PAST_CONVERSATIONS>/)![0]);
