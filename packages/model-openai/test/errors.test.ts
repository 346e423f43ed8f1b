import { createLlmRequest, createUserContent } from '@adkit/flow';
import { fixtureRequestBody, startReplayServer, type ReplayServer } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, openaiAt, sentBodies, withoutClientDefaults } from './helpers.js';

let server: ReplayServer;
afterEach(async () => {
  await server.close();
});

const hello = createLlmRequest({ contents: [createUserContent('hi')] });

describe('HTTP errors become error responses, never throws', () => {
  it('recorded Chat 400 → errorCode "400" with type, param and the API message; not retried', async () => {
    server = await startReplayServer({ script: ['openai-chat--error-400.json'] });
    const model = openaiAt(server, 'gpt-4o', { extraBody: { web_search_options: { search_context_size: 'low' } } });
    const request = createLlmRequest({
      contents: [createUserContent('What day is today?')],
      config: { systemInstruction: { role: 'user', parts: [{ text: 'You are a helpful assistant.' }] } },
    });
    const responses = await collect(model, request, false);
    expect(responses).toEqual([
      {
        errorCode: '400',
        errorMessage:
          'OpenAI API error 400 (invalid_request_error, param "web_search_options") for model "gpt-4o": Web search options not supported with this model.',
      },
    ]);
    expect(server.requests).toHaveLength(1);
    expect(sentBodies(server)).toEqual([withoutClientDefaults(fixtureRequestBody('openai-chat--error-400.json'), ['stream'])]);
    server.assertDone();
  });

  it('recorded Responses 400 on a streaming request → errorCode "400" with the API code', async () => {
    server = await startReplayServer({ script: ['openai-responses--error-400.json'] });
    const request = createLlmRequest({ contents: [createUserContent('What is the capital of France?')], config: { temperature: -1 } });
    const responses = await collect(openaiAt(server, 'gpt-4o', { api: 'responses' }), request, true);
    expect(responses).toEqual([
      {
        errorCode: '400',
        errorMessage:
          "OpenAI API error 400 (invalid_request_error, param \"temperature\", code decimal_below_min_value) for model \"gpt-4o\": Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got -1 instead.",
      },
    ]);
    expect(sentBodies(server)).toEqual([withoutClientDefaults(fixtureRequestBody('openai-responses--error-400.json'), ['instructions'])]);
    server.assertDone();
  });

  it('401 → errorCode "401", not retried', async () => {
    server = await startReplayServer();
    server.enqueue({
      endpoint: '/chat/completions',
      status: 401,
      json: { error: { message: 'Incorrect API key provided: sk-repla***test.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
    });
    const responses = await collect(openaiAt(server, 'gpt-4o'), hello, false);
    expect(responses).toEqual([
      {
        errorCode: '401',
        errorMessage:
          'OpenAI API error 401 (invalid_request_error, code invalid_api_key) for model "gpt-4o": Incorrect API key provided: sk-repla***test.',
      },
    ]);
    server.assertDone();
  });

  it.each([
    [429, 'Rate limit reached for gpt-4o.', 'rate_limit_exceeded'],
    [500, 'The server had an error while processing your request.', 'server_error'],
  ])('%i → retried maxRetries times (honouring retry-after-ms), then an error response with that status', async (status, message, code) => {
    server = await startReplayServer();
    const failure = {
      endpoint: '/chat/completions',
      status,
      json: { error: { message, type: code, param: null, code } },
      headers: { 'retry-after-ms': '1' },
    };
    server.enqueue(failure, failure, failure);
    const responses = await collect(openaiAt(server, 'gpt-4o', { maxRetries: 2 }), hello, true);
    expect(responses).toEqual([
      { errorCode: String(status), errorMessage: `OpenAI API error ${status} (${code}, code ${code}) for model "gpt-4o": ${message}` },
    ]);
    expect(server.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2']);
    server.assertDone();
  });

  it('a retried 429 that then succeeds yields the answer', async () => {
    server = await startReplayServer();
    server.enqueue(
      { endpoint: '/responses', status: 429, json: { error: { message: 'slow down' } }, headers: { 'retry-after-ms': '1' } },
      'openai-responses--parallel-function-calls.json',
    );
    const [response] = await collect(openaiAt(server, 'gpt-4o', { api: 'responses' }), hello, false);
    expect(response!.content!.parts!.map((p) => p.functionCall?.name)).toEqual(['get_location', 'get_location']);
    server.assertDone();
  });

  it('a server that is gone → CONNECTION_ERROR naming the base URL', async () => {
    server = await startReplayServer();
    const model = openaiAt(server, 'gpt-4o', { maxRetries: 0 });
    await server.close();
    const responses = await collect(model, hello, true);
    expect(responses).toHaveLength(1);
    expect(responses[0]!.errorCode).toBe('CONNECTION_ERROR');
    expect(responses[0]!.errorMessage).toMatch(new RegExp(`^Could not reach the OpenAI API at ${server.openaiBaseURL} for model "gpt-4o"`));
  });

  it('a server that does not answer in time → TIMEOUT', async () => {
    server = await startReplayServer({ script: [{ fixture: 'openai-chat--tool-call-stream.2.sse', pauseAfterEvents: 0 }] });
    const responses = await collect(openaiAt(server, 'gpt-4o', { maxRetries: 0, timeout: 50 }), hello, false);
    expect(responses).toEqual([
      { errorCode: 'TIMEOUT', errorMessage: `The OpenAI API at ${server.openaiBaseURL} did not answer in time for model "gpt-4o".` },
    ]);
  });
});

describe('requests refused before sending', () => {
  it.each([['chat'], ['responses']] as const)('%s: a native Gemini tool → UNSUPPORTED_TOOL naming the tool and the remedy', async (api) => {
    server = await startReplayServer();
    const request = createLlmRequest({ contents: [createUserContent('news?')], config: { tools: [{ functionDeclarations: [] }, { googleSearch: {} }] } });
    const responses = await collect(openaiAt(server, 'gpt-4o', { api }), request, true);
    expect(responses).toEqual([
      {
        errorCode: 'UNSUPPORTED_TOOL',
        errorMessage:
          'OpenAI model "gpt-4o" cannot use the Gemini-native tool "googleSearch": native tools run only on Gemini models. Run it in an agent on a Gemini model and give that agent to this one as an agent-tool, or remove it from this agent.',
      },
    ]);
    expect(server.requests).toEqual([]);
  });

  it('responses: stop sequences (which the Responses API lacks) → UNSUPPORTED_SETTING', async () => {
    server = await startReplayServer();
    const request = createLlmRequest({ contents: [createUserContent('x')], config: { stopSequences: ['END'] } });
    const responses = await collect(openaiAt(server, 'gpt-4o', { api: 'responses' }), request, false);
    expect(responses).toEqual([
      {
        errorCode: 'UNSUPPORTED_SETTING',
        errorMessage: `The OpenAI Responses API takes no stop sequences (config.stopSequences); remove it or use openai("gpt-4o", {api: 'chat'}).`,
      },
    ]);
    expect(server.requests).toEqual([]);
  });

  it('bad input: audio in a user turn → UNSUPPORTED_CONTENT naming the type', async () => {
    server = await startReplayServer();
    const request = createLlmRequest({ contents: [createUserContent([{ inlineData: { mimeType: 'audio/wav', data: 'AAAA' } }])] });
    const [response] = await collect(openaiAt(server, 'gpt-4o'), request, false);
    expect(response).toEqual({
      errorCode: 'UNSUPPORTED_CONTENT',
      errorMessage:
        'OpenAI model "gpt-4o" cannot take inline data of type "audio/wav"; send images (inline or http URLs) or PDFs, or describe the content as text.',
    });
  });
});

describe('abort', () => {
  it.each([
    ['chat', 'openai-chat--tool-call-stream.2.sse'],
    ['responses', 'openai-responses--text-then-function-call-stream.2.sse'],
  ] as const)('%s: a signal aborted mid-stream ends the generator cleanly', async (api, fixture) => {
    server = await startReplayServer({ script: [{ fixture, pauseAfterEvents: 6 }] });
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const response of openaiAt(server, 'gpt-4o', { api }).generateContent(hello, { stream: true, signal: controller.signal })) {
      seen.push(response.partial ? 'partial' : `final ${response.errorCode ?? ''}`);
      if (seen.length === 2) controller.abort();
    }
    expect(seen).toEqual(['partial', 'partial']);
  });

  it('an already aborted signal makes no request and yields nothing', async () => {
    server = await startReplayServer();
    expect(await collect(openaiAt(server, 'gpt-4o'), hello, true, AbortSignal.abort())).toEqual([]);
    expect(server.requests).toEqual([]);
  });
});
