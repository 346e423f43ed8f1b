import { createLlmRequest, createUserContent } from '@adkit/flow';
import { openai } from '@adkit/model-openai';

// Reads OPENAI_API_KEY. Any OpenAI-compatible server works through baseURL, e.g.
// openai('llama3.2', { baseURL: 'http://localhost:11434/v1', apiKey: 'ollama' })
const model = openai('gpt-4o-mini', { strict: true });

const request = createLlmRequest({
  contents: [createUserContent('What is the capital of the UK? Use the tool, then answer.')],
  config: {
    tools: [{ functionDeclarations: [{ name: 'get_capital', description: '',
      parametersJsonSchema: { type: 'object', properties: { country: { type: 'string' } }, required: ['country'] } }] }],
  },
});

for await (const response of model.generateContent(request, { stream: true })) {
  if (response.errorCode) console.error(`${response.errorCode}: ${response.errorMessage}`); // e.g. INCOMPLETE_STREAM
  else if (!response.partial) console.log(JSON.stringify(response.content?.parts));
}
