import { InMemoryRunner, LlmAgent, createUserContent } from '@adkit/flow';
import { googleSearch } from '@adkit/gemini-tools';
import { gemini } from '@adkit/model-gemini';

const agent = new LlmAgent({
  name: 'searcher',
  model: gemini('gemini-2.5-pro'), // reads GEMINI_API_KEY
  instruction: 'You are a helpful chatbot.',
  tools: [googleSearch], // Gemini runs the search; nothing runs locally
});

const runner = new InMemoryRunner({ agent, appName: 'search', autoCreateSession: true });
const message = createUserContent('What is the weather in San Francisco today?');
for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: message })) {
  const queries = event.groundingMetadata?.webSearchQueries;
  if (queries) console.log('searched for:', queries);
}
