import { createLlmRequest, createUserContent, type Content, type Part } from '@adkit/flow';
import { fixtureJson, fixtureRequestBody, startReplayServer, type ReplayServer } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { RESPONSES_ITEM_KEY, responsesItemOf, type ResponsesItem } from '../src/responsesItem.js';

import { collect, openaiAt, sentBodies, withoutClientDefaults } from './helpers.js';

const itemMeta = (item: ResponsesItem) => ({ [RESPONSES_ITEM_KEY]: item });

let server: ReplayServer;
afterEach(async () => {
  server.assertDone();
  await server.close();
});

const capitalTool = {
  name: 'get_capital',
  description: '',
  parametersJsonSchema: { type: 'object', properties: { country: { type: 'string' } }, required: ['country'] },
};
const auto = { functionCallingConfig: { mode: 'AUTO' } };

describe('Responses API: function calls', () => {
  it('parallel calls: two function_call items with their call_ids; strict tools as recorded', async () => {
    server = await startReplayServer({ script: ['openai-responses--parallel-function-calls.json'] });
    const model = openaiAt(server, 'gpt-4o', { api: 'responses', strict: true });
    const request = createLlmRequest({
      contents: [createUserContent('What is the location of Londos and London?')],
      config: {
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_location',
                description: '',
                parametersJsonSchema: { type: 'object', properties: { loc_name: { type: 'string' } }, required: ['loc_name'] },
              },
            ],
          },
        ],
        toolConfig: auto,
      },
    });
    const [response] = await collect(model, request, false);
    expect(response).toEqual({
      content: {
        role: 'model',
        parts: [
          {
            functionCall: { id: 'call_LWVp74L5HaH2KNvgVz9PJsrj', name: 'get_location', args: { loc_name: 'Londos' } },
            partMetadata: itemMeta({ type: 'function_call', id: 'fc_67e547c540648191bc7505ac667e023f0ae6111e84dd5c08' }),
          },
          {
            functionCall: { id: 'call_YnRAWeTyxI91m5uNa5bxXwVO', name: 'get_location', args: { loc_name: 'London' } },
            partMetadata: itemMeta({ type: 'function_call', id: 'fc_67e547c55c3081919da7a3f7fe81a1030ae6111e84dd5c08' }),
          },
        ],
      },
      finishReason: 'STOP',
      modelVersion: 'gpt-4o-2024-08-06',
      usageMetadata: { promptTokenCount: 0, candidatesTokenCount: 0, totalTokenCount: 0 },
    });
    expect(server.requests[0]!.path).toBe('/v1/responses');
    expect(sentBodies(server)).toEqual([withoutClientDefaults(fixtureRequestBody('openai-responses--parallel-function-calls.json'), ['instructions'])]);
  });

  it('stream: argument deltas → one complete call; no text, so no partial responses', async () => {
    server = await startReplayServer({ script: ['openai-responses--function-call-stream.sse'] });
    const model = openaiAt(server, 'gpt-4o', { api: 'responses', strict: true });
    const request = createLlmRequest({
      contents: [createUserContent('What is the capital of France?')],
      config: { tools: [{ functionDeclarations: [capitalTool] }], toolConfig: auto },
    });
    const responses = await collect(model, request, true);
    expect(responses).toHaveLength(1);
    expect(responses[0]!.content!.parts).toEqual([
      {
        functionCall: { id: 'call_kL0PCQV7M2WMoVX8V8OtYSAL', name: 'get_capital', args: { country: 'France' } },
        partMetadata: itemMeta({ type: 'function_call', id: 'fc_67e554a1de488191af0831d35cbe082e0794405d35281ae2' }),
      },
    ]);
    expect(responses[0]!.usageMetadata).toEqual({ promptTokenCount: 255, candidatesTokenCount: 16, totalTokenCount: 271 });
    expect(sentBodies(server)).toEqual([withoutClientDefaults(fixtureRequestBody('openai-responses--function-call-stream.sse'), ['instructions'])]);
  });
});

describe('Responses API: reasoning items round-trip', () => {
  const planTool = {
    name: 'update_plan',
    parametersJsonSchema: { type: 'object', properties: { plan: { type: 'string' } }, required: ['plan'] },
  };
  const instructions =
    "You are a helpful assistant that uses planning. You MUST use the update_plan tool and continually update it as you make progress against the user's prompt";

  it('2 turns: the reasoning item and the call item id go back exactly as received', async () => {
    server = await startReplayServer({
      script: ['openai-responses--reasoning-function-call.1.json', 'openai-responses--reasoning-function-call.2.json'],
    });
    const model = openaiAt(server, 'gpt-5', { api: 'responses', strict: true, reasoning: { effort: 'low', summary: 'detailed' } });
    const recorded1 = fixtureRequestBody('openai-responses--reasoning-function-call.1.json') as { input: Array<{ content: string }> };
    const config = {
      systemInstruction: { role: 'user', parts: [{ text: instructions }] },
      tools: [{ functionDeclarations: [planTool] }],
      toolConfig: auto,
    };
    const question = createUserContent(recorded1.input[0]!.content);

    const [turn1] = await collect(model, createLlmRequest({ contents: [question], config }), false);
    const output = (fixtureJson('openai-responses--reasoning-function-call.1.json') as { output: Array<Record<string, unknown>> }).output;
    const reasoningItem = output[0] as { id: string; encrypted_content: string; summary: Array<{ text: string; type: string }> };
    const parts = turn1!.content!.parts!;
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatchObject({ thought: true, text: reasoningItem.summary.map((s) => s.text).join('\n\n') });
    expect(responsesItemOf(parts[0]!)).toEqual({
      type: 'reasoning',
      id: reasoningItem.id,
      encrypted_content: reasoningItem.encrypted_content,
      summary: reasoningItem.summary,
    });
    expect(parts[1]!.functionCall).toEqual({
      id: 'call_gL7JE6GDeGGsFubqO2XGytyO',
      name: 'update_plan',
      args: JSON.parse((output[1] as { arguments: string }).arguments),
    });
    expect(turn1!.usageMetadata).toEqual({ promptTokenCount: 124, candidatesTokenCount: 134, totalTokenCount: 2050, thoughtsTokenCount: 1792 });

    // The flow stores the model turn as it came and answers the call.
    const history: Content[] = [
      question,
      turn1!.content!,
      createUserContent([{ functionResponse: { id: 'call_gL7JE6GDeGGsFubqO2XGytyO', name: 'update_plan', response: { result: 'plan updated' } } }]),
    ];
    const [turn2] = await collect(model, createLlmRequest({ contents: history, config }), false);
    expect(turn2!.content!.parts!.map((p) => p.text)).toEqual([
      (fixtureJson('openai-responses--reasoning-function-call.2.json') as { output: Array<{ content: Array<{ text: string }> }> }).output[0]!
        .content[0]!.text,
    ]);
    expect(turn2!.usageMetadata).toMatchObject({ cachedContentTokenCount: 2048 });

    expect(sentBodies(server)).toEqual([
      withoutClientDefaults(fixtureRequestBody('openai-responses--reasoning-function-call.1.json'), ['stream']),
      withoutClientDefaults(fixtureRequestBody('openai-responses--reasoning-function-call.2.json'), ['stream']),
    ]);
  });

  it('stream: an encrypted reasoning item without summary, then a call; reasoning tokens become thoughtsTokenCount', async () => {
    server = await startReplayServer({ script: ['openai-responses--reasoning-function-call-stream.sse'] });
    const model = openaiAt(server, 'gpt-5', { api: 'responses', strict: true, reasoning: { effort: 'low' }, extraBody: { service_tier: 'flex' } });
    const request = createLlmRequest({
      contents: [createUserContent('Calculate 100 * 200 / 3')],
      config: {
        tools: [
          {
            functionDeclarations: [
              {
                name: 'final_result',
                description: 'The final response which ends this conversation',
                parametersJsonSchema: { type: 'object', properties: { result: { type: 'integer' } }, required: ['result'] },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'ANY' } },
      },
    });
    const responses = await collect(model, request, true);
    expect(responses).toHaveLength(1);
    const parts = responses[0]!.content!.parts!;
    expect(parts.map((p) => ({ ...p, partMetadata: responsesItemOf(p)?.type }))).toEqual([
      { text: '', thought: true, partMetadata: 'reasoning' },
      { functionCall: { id: 'call_CWXgs68YprAjp6t0371hiPOI', name: 'final_result', args: { result: 6666 } }, partMetadata: 'function_call' },
    ]);
    // The item as its output_item.done event gave it (the encrypted content differs from the copy in response.completed).
    expect(responsesItemOf(parts[0]!)).toMatchObject({ id: 'rs_0050471a34b36ae60068c97bac4dcc819595fd0f80d6b3c405' });
    expect((responsesItemOf(parts[0]!) as { encrypted_content: string }).encrypted_content).toMatch(/^gAAAAABoyXvx/);
    expect(responses[0]!.usageMetadata).toEqual({ promptTokenCount: 53, candidatesTokenCount: 21, totalTokenCount: 522, thoughtsTokenCount: 448 });
    expect(sentBodies(server)).toEqual([withoutClientDefaults(fixtureRequestBody('openai-responses--reasoning-function-call-stream.sse'), [])]);
  });

  it('stream, 2 turns: reasoning, commentary text, then a call; the message id and phase go back with the text', async () => {
    server = await startReplayServer({
      script: ['openai-responses--text-then-function-call-stream.1.sse', 'openai-responses--text-then-function-call-stream.2.sse'],
    });
    const model = openaiAt(server, 'gpt-5.5', { api: 'responses', strict: true, extraBody: { include: ['reasoning.encrypted_content'] } });
    const config = {
      systemInstruction: { role: 'user', parts: [{ text: 'Briefly narrate what you are about to do before calling each tool.' }] },
      tools: [{ functionDeclarations: [{ name: 'get_capital', parametersJsonSchema: capitalTool.parametersJsonSchema }] }],
      toolConfig: auto,
    };
    const question = createUserContent('What is the capital of PotatoLand?');
    const turn1 = await collect(model, createLlmRequest({ contents: [question], config }), true);
    const narration = 'I’ll check the capital lookup tool for “PotatoLand.”';
    expect(turn1.filter((r) => r.partial).map((r) => r.content!.parts![0]!.text).join('')).toBe(narration);
    const final1 = turn1.at(-1)!;
    expect(final1.content!.parts!.map((p: Part) => [p.text ?? p.functionCall?.name, responsesItemOf(p)])).toEqual([
      ['', expect.objectContaining({ type: 'reasoning', id: 'rs_0fabc13af1ee0049006a691dfe60b081a1baa444d3cf19afba' })],
      [narration, { type: 'message', id: 'msg_0fabc13af1ee0049006a691dfebdc881a1ae18d027c313d8ce', phase: 'commentary' }],
      ['get_capital', { type: 'function_call', id: 'fc_0fabc13af1ee0049006a691dff0c1481a1b4a0eec7e3c753bb' }],
    ]);

    const history: Content[] = [
      question,
      final1.content!,
      createUserContent([{ functionResponse: { id: 'call_LabG58Uhrq9kZvR52BYKjToD', name: 'get_capital', response: { result: 'Potato City' } } }]),
    ];
    const turn2 = await collect(model, createLlmRequest({ contents: history, config }), true);
    expect(turn2.at(-1)!.content!.parts).toEqual([
      {
        text: 'The capital of PotatoLand is **Potato City**.',
        partMetadata: itemMeta({ type: 'message', id: 'msg_0fabc13af1ee0049006a691e008ed881a19fb315ceb267e808', phase: 'final_answer' }),
      },
    ]);

    // pydantic-ai sent the narration with straight quotes; everything else is what it recorded.
    const [sent1, sent2] = sentBodies(server);
    expect(sent1).toEqual(withoutClientDefaults(fixtureRequestBody('openai-responses--text-then-function-call-stream.1.sse'), []));
    const recorded2 = withoutClientDefaults(fixtureRequestBody('openai-responses--text-then-function-call-stream.2.sse'), []) as {
      input: Array<{ content?: Array<{ text: string }> }>;
    };
    recorded2.input[2]!.content![0]!.text = narration;
    expect(sent2).toEqual(recorded2);
  });
});

describe('Responses API: other outcomes', () => {
  const reply = (response: Record<string, unknown>) => ({
    endpoint: '/responses',
    json: { id: 'resp_1', object: 'response', model: 'gpt-4o-2024-08-06', output: [], ...response },
  });

  it('a refusal content part → errorCode REFUSAL', async () => {
    server = await startReplayServer();
    server.enqueue(
      reply({
        status: 'completed',
        output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'No.' }] }],
      }),
    );
    const [response] = await collect(openaiAt(server, 'gpt-4o', { api: 'responses' }), createLlmRequest({ contents: [createUserContent('x')] }), false);
    expect(response).toEqual({ finishReason: 'STOP', modelVersion: 'gpt-4o-2024-08-06', errorCode: 'REFUSAL', errorMessage: 'The model refused: No.' });
  });

  it('incomplete at max_output_tokens → MAX_TOKENS; a failed response → its error code and message', async () => {
    server = await startReplayServer();
    server.enqueue(
      reply({
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
        output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'incomplete', content: [{ type: 'output_text', text: 'Once', annotations: [] }] }],
      }),
      reply({ status: 'failed', error: { code: 'server_error', message: 'The model crashed.' } }),
    );
    const model = openaiAt(server, 'gpt-4o', { api: 'responses' });
    const request = createLlmRequest({ contents: [createUserContent('x')] });
    const [cut] = await collect(model, request, false);
    expect(cut).toMatchObject({ finishReason: 'MAX_TOKENS', content: { parts: [{ text: 'Once' }] } });
    const [failed] = await collect(model, request, false);
    expect(failed).toEqual({
      finishReason: 'OTHER',
      modelVersion: 'gpt-4o-2024-08-06',
      errorCode: 'server_error',
      errorMessage: 'OpenAI response failed: The model crashed.',
    });
  });

  it('a stream error event → an error response after the partials', async () => {
    server = await startReplayServer();
    server.enqueue({
      endpoint: '/responses',
      sse: [
        { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hel' },
        { type: 'error', code: 'server_error', message: 'Stream broke.', param: null, sequence_number: 2 },
      ],
    });
    const responses = await collect(openaiAt(server, 'gpt-4o', { api: 'responses' }), createLlmRequest({ contents: [createUserContent('x')] }), true);
    expect(responses.at(-1)).toMatchObject({ errorCode: 'server_error' });
    expect(responses.at(-1)!.errorMessage).toContain('Stream broke.');
    expect(responses[0]).toEqual({ partial: true, content: { role: 'model', parts: [{ text: 'Hel' }] } });
  });
});
