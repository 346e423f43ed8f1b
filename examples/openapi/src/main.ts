import { InMemoryRunner, LlmAgent, createUserContent, stringifyContent } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { openApiToolset } from '@adkit/openapi-toolset';
import { startPetstore } from './petstore.js';

const petstore = await startPetstore('demo-key'); // a Petstore API on 127.0.0.1, with its OpenAPI description
const pets = openApiToolset({
  spec: petstore.specUrl, // or the document itself, or a file path
  baseUrl: petstore.url,
  auth: { api_key: { apiKey: 'demo-key' } }, // the app's credential: the model never sees it
  allowPrivateAddresses: ['127.0.0.1'], // private and loopback addresses are refused unless allowed
});
const model = new ScriptedModel([functionCallResponse([{ name: 'listPets', args: { limit: 2 } }]), textResponse('Rex and Tom.')]);
const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'shop', model, toolsets: [pets] }), autoCreateSession: true });
for await (const event of runner.runAsync({ userId: 'ann', sessionId: 's1', newMessage: createUserContent('Name two pets.') }))
  if (event.content) console.log(stringifyContent(event));
await runner.close();
await petstore.close();
