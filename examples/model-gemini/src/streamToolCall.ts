import { createLlmRequest, createUserContent } from '@adkit/flow';
import { gemini } from '@adkit/model-gemini';

const model = gemini('gemini-2.0-flash'); // reads GEMINI_API_KEY (or pass {apiKey})

const request = createLlmRequest({
  contents: [createUserContent('What is the temperature of the capital of France?')],
  config: {
    systemInstruction: { role: 'user', parts: [{ text: 'You are a helpful chatbot.' }] },
    tools: [{ functionDeclarations: [{ name: 'get_capital', description: 'Get the capital of a country.',
      parametersJsonSchema: { type: 'object', properties: { country: { type: 'string' } }, required: ['country'] } }] }],
  },
});

for await (const response of model.generateContent(request, { stream: true })) {
  if (response.errorCode) console.error(`${response.errorCode}: ${response.errorMessage}`); // e.g. INCOMPLETE_STREAM
  else if (!response.partial) console.log(JSON.stringify(response.content?.parts));
}
