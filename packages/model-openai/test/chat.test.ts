import { createLlmRequest, createModelContent, createUserContent, type FunctionDeclaration } from '@adkit/flow';
import { fixtureRequestBody, startReplayServer, type ReplayServer } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, openaiAt, sentBodies, withoutClientDefaults } from './helpers.js';

let server: ReplayServer;
afterEach(async () => {
  server.assertDone();
  await server.close();
});

describe('Chat Completions: tool calls', () => {
  const declarations: FunctionDeclaration[] = [
    { name: 'get_user_country', description: '', parametersJsonSchema: { type: 'object', properties: {}, additionalProperties: false } },
    {
      name: 'final_result',
      description: 'The final response which ends this conversation',
      parametersJsonSchema: {
        type: 'object',
        properties: { city: { type: 'string' }, country: { type: 'string' } },
        required: ['city', 'country'],
      },
    },
  ];
  const config = {
    tools: [{ functionDeclarations: declarations }],
    toolConfig: { functionCallingConfig: { mode: 'ANY' } },
  };

  it('2 turns: sends messages, tools and tool_choice as recorded; the call and its tool message round-trip by id', async () => {
    server = await startReplayServer({ script: ['openai-chat--tool-call.1.json', 'openai-chat--tool-call.2.json'] });
    const model = openaiAt(server, 'gpt-4o');
    const question = createUserContent('What is the largest city in the user country?');

    const turn1 = await collect(model, createLlmRequest({ contents: [question], config }), false);
    expect(turn1).toEqual([
      {
        content: { role: 'model', parts: [{ functionCall: { id: 'call_iXFttys57ap0o16JSlC8yhYo', name: 'get_user_country', args: {} } }] },
        finishReason: 'STOP',
        modelVersion: 'gpt-4o-2024-08-06',
        usageMetadata: { promptTokenCount: 68, candidatesTokenCount: 12, totalTokenCount: 80 },
      },
    ]);

    const history = [
      question,
      turn1[0]!.content!,
      createUserContent([
        { functionResponse: { id: 'call_iXFttys57ap0o16JSlC8yhYo', name: 'get_user_country', response: { result: 'Mexico' } } },
      ]),
    ];
    const turn2 = await collect(model, createLlmRequest({ contents: history, config }), false);
    expect(turn2[0]!.content!.parts).toEqual([
      { functionCall: { id: 'call_gmD2oUZUzSoCkmNmp3JPUF7R', name: 'final_result', args: { city: 'Mexico City', country: 'Mexico' } } },
    ]);

    expect(server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-replay-test');
    expect(sentBodies(server)).toEqual([
      withoutClientDefaults(fixtureRequestBody('openai-chat--tool-call.1.json'), ['n', 'stream']),
      withoutClientDefaults(fixtureRequestBody('openai-chat--tool-call.2.json'), ['n', 'stream']),
    ]);
  });

  it('stream, 2 turns: argument deltas are assembled; strict schemas as recorded; text deltas then one aggregate', async () => {
    server = await startReplayServer({ script: ['openai-chat--tool-call-stream.1.sse', 'openai-chat--tool-call-stream.2.sse'] });
    const model = openaiAt(server, 'gpt-4o-mini', { strict: true });
    const streamConfig = {
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_capital',
              description: '',
              parametersJsonSchema: { type: 'object', properties: { country: { type: 'string' } }, required: ['country'] },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
    };
    const question = createUserContent('What is the capital of the UK? Use the tool, then answer.');
    const turn1 = await collect(model, createLlmRequest({ contents: [question], config: streamConfig }), true);
    expect(turn1).toEqual([
      {
        content: { role: 'model', parts: [{ functionCall: { id: 'call_ZR5UUuTt3pf61kjwAJIYdVMj', name: 'get_capital', args: { country: 'UK' } } }] },
        finishReason: 'STOP',
        modelVersion: 'gpt-4o-mini-2024-07-18',
        usageMetadata: { promptTokenCount: 53, candidatesTokenCount: 15, totalTokenCount: 68 },
      },
    ]);

    const history = [
      question,
      turn1[0]!.content!,
      createUserContent([{ functionResponse: { id: 'call_ZR5UUuTt3pf61kjwAJIYdVMj', name: 'get_capital', response: { result: 'London' } } }]),
    ];
    const turn2 = await collect(model, createLlmRequest({ contents: history, config: streamConfig }), true);
    const partials = turn2.filter((r) => r.partial);
    expect(partials.map((r) => r.content!.parts![0]!.text)).toEqual(['The', ' capital', ' of', ' the', ' UK', ' is', ' London', '.']);
    expect(turn2.at(-1)).toEqual({
      content: { role: 'model', parts: [{ text: 'The capital of the UK is London.' }] },
      finishReason: 'STOP',
      modelVersion: 'gpt-4o-mini-2024-07-18',
      usageMetadata: { promptTokenCount: 78, candidatesTokenCount: 9, totalTokenCount: 87 },
    });

    expect(sentBodies(server)).toEqual([
      withoutClientDefaults(fixtureRequestBody('openai-chat--tool-call-stream.1.sse'), []),
      withoutClientDefaults(fixtureRequestBody('openai-chat--tool-call-stream.2.sse'), []),
    ]);
  });

  it('a function response from history with a single string `result` is sent as that text, others as JSON', async () => {
    server = await startReplayServer();
    server.enqueue({ endpoint: '/chat/completions', json: { choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] } });
    const contents = [
      createUserContent('go'),
      createModelContent([
        { functionCall: { id: 'a', name: 'f', args: {} } },
        { functionCall: { id: 'b', name: 'g', args: { x: 1 } } },
      ]),
      createUserContent([
        { functionResponse: { id: 'a', name: 'f', response: { result: 'text' } } },
        { functionResponse: { id: 'b', name: 'g', response: { result: 2, unit: 'm' } } },
      ]),
    ];
    const [response] = await collect(openaiAt(server, 'gpt-4o'), createLlmRequest({ contents }), false);
    expect(response!.content).toEqual({ role: 'model', parts: [{ text: 'ok' }] });
    expect((sentBodies(server)[0]!.messages as unknown[]).slice(1)).toEqual([
      {
        role: 'assistant',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } },
          { id: 'b', type: 'function', function: { name: 'g', arguments: '{"x":1}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'text' },
      { role: 'tool', tool_call_id: 'b', content: '{"result":2,"unit":"m"}' },
    ]);
  });
});

describe('Chat Completions: answers without calls', () => {
  const reply = (message: Record<string, unknown>, finish: string) => ({
    endpoint: '/chat/completions',
    json: { model: 'gpt-4o-2024-08-06', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }] },
  });

  it('a refusal becomes errorCode REFUSAL with the refusal text', async () => {
    server = await startReplayServer();
    server.enqueue(reply({ content: null, refusal: "I can't help with that." }, 'stop'));
    const [response] = await collect(openaiAt(server, 'gpt-4o'), createLlmRequest({ contents: [createUserContent('x')] }), false);
    expect(response).toEqual({
      finishReason: 'STOP',
      modelVersion: 'gpt-4o-2024-08-06',
      errorCode: 'REFUSAL',
      errorMessage: "The model refused: I can't help with that.",
    });
  });

  it('a streamed refusal too', async () => {
    server = await startReplayServer();
    server.enqueue({
      endpoint: '/chat/completions',
      sse: [
        { choices: [{ index: 0, delta: { role: 'assistant', refusal: "I can't" }, finish_reason: null }] },
        { choices: [{ index: 0, delta: { refusal: ' do that.' }, finish_reason: 'stop' }] },
        '[DONE]',
      ],
    });
    const responses = await collect(openaiAt(server, 'gpt-4o'), createLlmRequest({ contents: [createUserContent('x')] }), true);
    expect(responses).toEqual([{ finishReason: 'STOP', errorCode: 'REFUSAL', errorMessage: "The model refused: I can't do that." }]);
  });

  it('finish reasons map to genai: length → MAX_TOKENS (content kept), content_filter without content → SAFETY error', async () => {
    server = await startReplayServer();
    server.enqueue(reply({ content: 'Once upon' }, 'length'), reply({ content: null }, 'content_filter'));
    const request = createLlmRequest({ contents: [createUserContent('x')] });
    const [cut] = await collect(openaiAt(server, 'gpt-4o'), request, false);
    expect(cut).toMatchObject({ content: { parts: [{ text: 'Once upon' }] }, finishReason: 'MAX_TOKENS' });
    expect(cut!.errorCode).toBeUndefined();
    const [filtered] = await collect(openaiAt(server, 'gpt-4o'), request, false);
    expect(filtered).toEqual({
      finishReason: 'SAFETY',
      modelVersion: 'gpt-4o-2024-08-06',
      errorCode: 'SAFETY',
      errorMessage: 'OpenAI stopped with finish reason "content_filter" and returned no content.',
    });
  });

  it('bad input from the model: tool-call arguments that are not a JSON object → MALFORMED_FUNCTION_CALL', async () => {
    server = await startReplayServer();
    server.enqueue(
      reply({ content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }] }, 'tool_calls'),
      reply({ content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '[1]' } }] }, 'tool_calls'),
    );
    const request = createLlmRequest({ contents: [createUserContent('x')] });
    for (const raw of ['{"a":', '[1]']) {
      const [response] = await collect(openaiAt(server, 'gpt-4o'), request, false);
      expect(response).toEqual({
        finishReason: 'MALFORMED_FUNCTION_CALL',
        modelVersion: 'gpt-4o-2024-08-06',
        errorCode: 'MALFORMED_FUNCTION_CALL',
        errorMessage: `The model called "f" with arguments that are not a JSON object: ${raw}`,
      });
    }
  });

  it('reasoning text from OpenAI-compatible servers (reasoning_content / reasoning) becomes thought parts', async () => {
    server = await startReplayServer();
    server.enqueue(
      {
        endpoint: '/chat/completions',
        sse: [
          { model: 'deepseek-r1', choices: [{ index: 0, delta: { role: 'assistant', reasoning_content: 'Think' }, finish_reason: null }] },
          { choices: [{ index: 0, delta: { reasoning_content: 'ing.' }, finish_reason: null }] },
          { choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }] },
          '[DONE]',
        ],
      },
      reply({ content: 'Yes', reasoning: 'Hmm' }, 'stop'),
    );
    const request = createLlmRequest({ contents: [createUserContent('x')] });
    const streamed = await collect(openaiAt(server, 'deepseek-r1'), request, true);
    expect(streamed.map((r) => r.content!.parts)).toEqual([
      [{ text: 'Think', thought: true }],
      [{ text: 'ing.', thought: true }],
      [{ text: 'Hi' }],
      [{ text: 'Thinking.', thought: true }, { text: 'Hi' }],
    ]);
    const [plain] = await collect(openaiAt(server, 'qwen3'), request, false);
    expect(plain!.content!.parts).toEqual([{ text: 'Hmm', thought: true }, { text: 'Yes' }]);
  });
});
