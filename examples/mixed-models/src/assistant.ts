import { agentTool } from '@adkit/agent-tool';
import { InMemoryRunner, LlmAgent, createUserContent, type Part } from '@adkit/flow';
import { googleSearch } from '@adkit/gemini-tools';
import { gemini } from '@adkit/model-gemini';
import { openai } from '@adkit/model-openai';

// Google Search runs only on Gemini, so a Gemini agent does the searching…
const searcher = new LlmAgent({
  name: 'searcher',
  description: 'Searches the web with Google and answers from what it found.',
  model: gemini('gemini-2.5-pro'),
  instruction: 'Answer from a Google search.',
  tools: [googleSearch],
});
// …and the assistant, on OpenAI, calls that agent as a tool: one conversation, two providers.
const assistant = new LlmAgent({
  name: 'assistant',
  model: openai('gpt-4.1-mini'),
  instruction: 'Use the searcher for anything that happens today.',
  tools: [agentTool(searcher)],
});
const firstLine = (text: unknown) => String(text).split('\n')[0];
const show = (who: string, part: Part) => {
  if (part.functionCall) console.log(`${who} → ${part.functionCall.name}(${JSON.stringify(part.functionCall.args)})`);
  else if (part.functionResponse) console.log(`  ${part.functionResponse.name} ← ${firstLine(part.functionResponse.response?.result)}`);
  else if (part.text) console.log(`${who}: ${firstLine(part.text)}`);
};

const runner = new InMemoryRunner({ agent: assistant, autoCreateSession: true });
const newMessage = createUserContent('Do I need a jacket in San Francisco today?');
for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage })) {
  if (event.errorCode) {
    console.error(`${event.author}: ${event.errorCode}: ${event.errorMessage}`);
    process.exitCode = 1;
  }
  const inner = event.toolProgress?.event; // the searcher's own events, shown while it works
  for (const part of inner?.content?.parts ?? []) show(`  (${inner!.author} on ${inner!.modelVersion})`, part);
  if (!event.partial) for (const part of event.content?.parts ?? []) show(event.author, part);
}
