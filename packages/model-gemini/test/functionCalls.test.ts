import { createLlmRequest, createModelContent, createUserContent, type FunctionDeclaration, type Part } from '@adkit/flow';
import { fixtureJson, fixtureRequestBody, startReplayServer, type ReplayServer } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { asJsSdkBody, collect, geminiAt, sentBodies } from './helpers.js';

let server: ReplayServer;
afterEach(async () => {
  server.assertDone();
  await server.close();
});

const userCountryTools: FunctionDeclaration[] = [
  { name: 'get_user_country', description: '', parameters: { type: 'OBJECT', properties: {} } },
  {
    name: 'final_result',
    description: 'The final response which ends this conversation',
    parameters: {
      type: 'OBJECT',
      properties: { city: { type: 'STRING' }, country: { type: 'STRING' } },
      required: ['city', 'country'],
    },
  },
];
const anyOfTwo = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_user_country', 'final_result'] } };

describe('Gemini function calls (generateContent)', () => {
  it('2 turns: sends contents, genai-style declarations and tool config as recorded; parses the calls', async () => {
    server = await startReplayServer({ script: ['gemini--function-call.1.json', 'gemini--function-call.2.json'] });
    const model = geminiAt(server, 'gemini-2.0-flash');
    const question = createUserContent('What is the largest city in the user country?');
    const config = { tools: [{ functionDeclarations: userCountryTools }], toolConfig: anyOfTwo };

    const [first, ...rest1] = await collect(model, createLlmRequest({ contents: [question], config }), false);
    expect(rest1).toEqual([]);
    expect(first).toEqual({
      content: { role: 'model', parts: [{ functionCall: { name: 'get_user_country', args: {} } }] },
      finishReason: 'STOP',
      modelVersion: 'gemini-2.0-flash',
      usageMetadata: (fixtureJson('gemini--function-call.1.json') as { usageMetadata: unknown }).usageMetadata,
    });
    // The call has no id: the flow gives it an `adk-` id and clears it again in history (FL-7).

    const call: Part = { functionCall: { id: 'pyd_ai_3fa5644dae1d4aad997ae39c70006fbd', name: 'get_user_country', args: {} } };
    const answer: Part = {
      functionResponse: { id: 'pyd_ai_3fa5644dae1d4aad997ae39c70006fbd', name: 'get_user_country', response: { return_value: 'Mexico' } },
    };
    const [second] = await collect(
      model,
      createLlmRequest({ contents: [question, createModelContent([call]), createUserContent([answer])], config }),
      false,
    );
    expect(second!.content).toEqual({
      role: 'model',
      parts: [{ functionCall: { name: 'final_result', args: { city: 'Mexico City', country: 'Mexico' } } }],
    });

    expect(server.requests.map((r) => r.path)).toEqual([
      '/v1beta/models/gemini-2.0-flash:generateContent',
      '/v1beta/models/gemini-2.0-flash:generateContent',
    ]);
    expect(server.requests[0]!.headers['x-goog-api-key']).toBe('AIza-replay-test');
    expect(sentBodies(server)).toEqual([
      fixtureRequestBody('gemini--function-call.1.json'),
      fixtureRequestBody('gemini--function-call.2.json'),
    ]);
  });

  it('parallel calls keep their order and the thought signature on the first call (gemini-3)', async () => {
    server = await startReplayServer({ script: ['gemini--parallel-function-calls-thought-signature.json'] });
    const model = geminiAt(server, 'gemini-3-flash-preview');
    const request = createLlmRequest({
      contents: [createUserContent('')],
      config: {
        systemInstruction: { role: 'user', parts: [{ text: 'Tell three jokes. Generate topics with the generate_topic tool.' }] },
        responseModalities: ['TEXT'],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['generate_topic', 'final_result'] } },
        tools: [
          {
            functionDeclarations: [
              {
                name: 'generate_topic',
                description: '',
                parametersJsonSchema: { type: 'object', properties: {}, additionalProperties: false },
              },
              {
                name: 'final_result',
                description: 'The final response which ends this conversation',
                parametersJsonSchema: {
                  type: 'object',
                  properties: { response: { type: 'array', items: { type: 'string' } } },
                  required: ['response'],
                },
              },
            ],
          },
        ],
      },
    });
    const [response] = await collect(model, request, false);
    const recorded = fixtureJson('gemini--parallel-function-calls-thought-signature.json') as {
      candidates: Array<{ content: { parts: Part[] } }>;
    };
    const signature = recorded.candidates[0]!.content.parts[0]!.thoughtSignature!;
    expect(response!.content!.parts).toEqual([
      { functionCall: { name: 'generate_topic', args: {} }, thoughtSignature: signature },
      { functionCall: { name: 'generate_topic', args: {} } },
      { functionCall: { name: 'generate_topic', args: {} } },
    ]);
    expect(response!.usageMetadata?.thoughtsTokenCount).toBe(190);
    expect(sentBodies(server)[0]).toEqual(asJsSdkBody(fixtureRequestBody('gemini--parallel-function-calls-thought-signature.json')));
  });
});

describe('Gemini function calls (streamGenerateContent)', () => {
  const tools: FunctionDeclaration[] = [
    {
      name: 'get_capital',
      description: 'Get the capital of a country.',
      parameters: {
        type: 'OBJECT',
        properties: { country: { type: 'STRING', description: 'The country name.' } },
        required: ['country'],
      },
    },
    {
      name: 'get_temperature',
      description: 'Get the temperature in a city.',
      parameters: {
        type: 'OBJECT',
        properties: { city: { type: 'STRING', description: 'The city name.' } },
        required: ['city'],
      },
    },
  ];

  it('3 turns: a whole call per chunk, then text deltas and one aggregate', async () => {
    server = await startReplayServer({
      script: ['gemini--function-call-stream.1.sse', 'gemini--function-call-stream.2.sse', 'gemini--function-call-stream.3.sse'],
    });
    const model = geminiAt(server, 'gemini-2.0-flash');
    const config = {
      systemInstruction: { role: 'user', parts: [{ text: 'You are a helpful chatbot.' }] },
      tools: [{ functionDeclarations: tools }],
    };
    const history = [createUserContent('What is the temperature of the capital of France?')];

    const turn1 = await collect(model, createLlmRequest({ contents: history, config }), true);
    expect(turn1).toHaveLength(1);
    expect(turn1[0]).toMatchObject({
      content: { role: 'model', parts: [{ functionCall: { name: 'get_capital', args: { country: 'France' } } }] },
      finishReason: 'STOP',
    });
    expect(turn1[0]!.partial).toBeUndefined();

    history.push(
      createModelContent([{ functionCall: { id: 'pyd_ai_0e1a07b3c2b64d2ab3ad2efbe18e1b97', name: 'get_capital', args: { country: 'France' } } }]),
      createUserContent([
        { functionResponse: { id: 'pyd_ai_0e1a07b3c2b64d2ab3ad2efbe18e1b97', name: 'get_capital', response: { return_value: 'Paris' } } },
      ]),
    );
    const turn2 = await collect(model, createLlmRequest({ contents: [...history], config }), true);
    expect(turn2.map((r) => r.content?.parts)).toEqual([[{ functionCall: { name: 'get_temperature', args: { city: 'Paris' } } }]]);

    history.push(
      createModelContent([{ functionCall: { id: 'pyd_ai_98b25d994c5648df82f683188629229d', name: 'get_temperature', args: { city: 'Paris' } } }]),
      createUserContent([
        { functionResponse: { id: 'pyd_ai_98b25d994c5648df82f683188629229d', name: 'get_temperature', response: { return_value: '30°C' } } },
      ]),
    );
    const turn3 = await collect(model, createLlmRequest({ contents: [...history], config }), true);
    expect(turn3).toEqual([
      { partial: true, content: { role: 'model', parts: [{ text: 'The temperature in Paris' }] } },
      { partial: true, content: { role: 'model', parts: [{ text: ' is 30°C.\n' }] } },
      {
        content: { role: 'model', parts: [{ text: 'The temperature in Paris is 30°C.\n' }] },
        finishReason: 'STOP',
        modelVersion: 'gemini-2.0-flash',
        usageMetadata: {
          promptTokenCount: 79,
          candidatesTokenCount: 12,
          totalTokenCount: 91,
          promptTokensDetails: [{ modality: 'TEXT', tokenCount: 79 }],
          candidatesTokensDetails: [{ modality: 'TEXT', tokenCount: 12 }],
        },
      },
    ]);

    expect(server.requests.map((r) => `${r.path}?${r.query}`)).toEqual(
      Array(3).fill('/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse'),
    );
    expect(sentBodies(server)).toEqual([
      fixtureRequestBody('gemini--function-call-stream.1.sse'),
      fixtureRequestBody('gemini--function-call-stream.2.sse'),
      fixtureRequestBody('gemini--function-call-stream.3.sse'),
    ]);
  });

  it('thought signature stream: the signature stays on the call and goes back with it in turn 2', async () => {
    server = await startReplayServer({
      script: ['gemini--function-call-thought-signature-stream.1.sse', 'gemini--function-call-thought-signature-stream.2.sse'],
    });
    const model = geminiAt(server, 'gemini-3-pro-preview');
    const config = {
      responseModalities: ['TEXT'],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_country',
              description: '',
              parametersJsonSchema: { type: 'object', properties: {}, additionalProperties: false },
            },
          ],
        },
      ],
    };
    const question = createUserContent('What is the capital of the user country? Call the tool');
    const turn1 = await collect(model, createLlmRequest({ contents: [question], config }), true);
    expect(turn1).toHaveLength(1);
    const parts = turn1[0]!.content!.parts!;
    // The empty closing text chunk (no signature) leaves no part behind.
    expect(parts).toHaveLength(1);
    expect(parts[0]!.functionCall).toEqual({ name: 'get_country', args: {} });
    expect(parts[0]!.thoughtSignature).toMatch(/^EpwICpkIAXLI2nx.{1000,}=$/);
    expect(turn1[0]!.usageMetadata?.thoughtsTokenCount).toBe(202);

    // The flow sends the call back with its signature (its `adk-` id cleared, FL-7; pydantic-ai kept its own id).
    const call: Part = { ...parts[0]!, functionCall: { ...parts[0]!.functionCall!, id: 'pyd_ai_29bf73b69e02448588e15893d47a3e7e' } };
    const answer: Part = {
      functionResponse: { id: 'pyd_ai_29bf73b69e02448588e15893d47a3e7e', name: 'get_country', response: { return_value: 'Mexico' } },
    };
    const turn2 = await collect(
      model,
      createLlmRequest({ contents: [question, createModelContent([call]), createUserContent([answer])], config }),
      true,
    );
    expect(turn2.filter((r) => r.partial).map((r) => r.content!.parts![0]!.text)).toEqual(['The capital of Mexico', ' is Mexico City.']);
    expect(turn2.at(-1)!.content).toEqual({ role: 'model', parts: [{ text: 'The capital of Mexico is Mexico City.' }] });

    expect(sentBodies(server)).toEqual([
      asJsSdkBody(fixtureRequestBody('gemini--function-call-thought-signature-stream.1.sse')),
      asJsSdkBody(fixtureRequestBody('gemini--function-call-thought-signature-stream.2.sse')),
    ]);
  });
});
