import { InMemoryRunner, LlmAgent, createUserContent, stringifyContent } from '@adkit/flow';
import { googleSearch } from '@adkit/gemini-tools';
import { gemini } from '@adkit/model-gemini';

interface Grounding {
  webSearchQueries?: string[];
  groundingChunks?: { web?: { title?: string; uri?: string } }[];
}

const agent = new LlmAgent({
  name: 'searcher',
  model: gemini('gemini-2.5-pro'),
  instruction: 'You are a helpful chatbot.',
  tools: [googleSearch], // Gemini searches on its side; the answer comes back grounded
});
const runner = new InMemoryRunner({ agent, appName: 'search', autoCreateSession: true });
const newMessage = createUserContent('What is the weather in San Francisco today?');
let chunks = 0;
for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage, runConfig: { streamingMode: 'sse' } })) {
  if (event.partial) {
    chunks++; // a UI shows each chunk as it arrives
    continue;
  }
  if (event.errorCode) {
    console.error(`${event.errorCode}: ${event.errorMessage}`); // e.g. a cut stream: no answer is made up
    process.exitCode = 1;
    continue;
  }
  const grounding = (event.groundingMetadata ?? {}) as Grounding;
  console.log(`${chunks} chunks, then: ${stringifyContent(event).split('\n')[0]}`);
  console.log(`searched for: ${grounding.webSearchQueries?.join('; ')}`);
  for (const source of grounding.groundingChunks ?? []) console.log(`source: ${source.web?.title}`);
}
