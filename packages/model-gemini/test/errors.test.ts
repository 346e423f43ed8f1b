import { createLlmRequest, createUserContent } from '@adkit/flow';
import { fixtureRequestBody, startReplayServer, type ReplayServer } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, geminiAt, sentBodies } from './helpers.js';

let server: ReplayServer;
afterEach(async () => {
  await server.close();
});

describe('errors become responses, never throws', () => {
  it('recorded 400 API_KEY_INVALID → errorCode "400" and the API message', async () => {
    server = await startReplayServer({ script: ['gemini--error-400-api-key-invalid.json'] });
    const request = createLlmRequest({
      contents: [createUserContent('what is the result of 100/2')],
      config: {
        tools: [
          {
            functionDeclarations: [
              {
                name: 'customDivide',
                description: 'Custom divide function',
                parameters: { type: 'OBJECT', properties: { denominator: { type: 'NUMBER' }, numerator: { type: 'NUMBER' } } },
              },
            ],
          },
        ],
      },
    });
    const responses = await collect(geminiAt(server, 'gemini-2.0-flash'), request, false);
    expect(responses).toEqual([
      {
        errorCode: '400',
        errorMessage:
          'Gemini API error 400 INVALID_ARGUMENT for model "gemini-2.0-flash": API key not valid. Please pass a valid API key.',
      },
    ]);
    expect(sentBodies(server)).toEqual([fixtureRequestBody('gemini--error-400-api-key-invalid.json')]);
    server.assertDone();
  });

  it('recorded 404 on a streaming request (JSON body sent as text/event-stream) → errorCode "404"', async () => {
    server = await startReplayServer({ script: ['gemini--error-404-stream-request.json'] });
    const request = createLlmRequest({ contents: [createUserContent('why is the sky blue?')] });
    const responses = await collect(geminiAt(server, 'custom-gemini-2.0-flash'), request, true);
    expect(responses).toEqual([
      {
        errorCode: '404',
        errorMessage:
          'Gemini API error 404 NOT_FOUND for model "custom-gemini-2.0-flash": models/custom-gemini-2.0-flash is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.',
      },
    ]);
    expect(sentBodies(server)).toEqual([fixtureRequestBody('gemini--error-404-stream-request.json')]);
    server.assertDone();
  });

  it.each([
    [429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.'],
    [500, 'INTERNAL', 'Internal error encountered.'],
    [401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.'],
  ])('HTTP %i → errorCode "%i" with the API status and message', async (status, apiStatus, message) => {
    server = await startReplayServer();
    server.enqueue({ endpoint: ':generateContent', status, json: { error: { code: status, message, status: apiStatus } } });
    const responses = await collect(geminiAt(server, 'gemini-2.5-flash'), createLlmRequest({ contents: [createUserContent('hi')] }), false);
    expect(responses).toEqual([
      { errorCode: String(status), errorMessage: `Gemini API error ${status} ${apiStatus} for model "gemini-2.5-flash": ${message}` },
    ]);
    server.assertDone();
  });

  it('bad input: a non-JSON error body still gives a readable message', async () => {
    server = await startReplayServer();
    server.enqueue({ endpoint: ':generateContent', status: 502, json: 'Bad Gateway' });
    const [response] = await collect(geminiAt(server, 'gemini-2.5-flash'), createLlmRequest({ contents: [createUserContent('hi')] }), false);
    expect(response!.errorCode).toBe('502');
    expect(response!.errorMessage).toContain('Gemini API error 502 for model "gemini-2.5-flash": ');
    expect(response!.errorMessage).toContain('Bad Gateway');
  });

  it('a server that is gone → CONNECTION_ERROR', async () => {
    server = await startReplayServer();
    const model = geminiAt(server, 'gemini-2.5-flash');
    await server.close();
    const responses = await collect(model, createLlmRequest({ contents: [createUserContent('hi')] }), true);
    expect(responses).toHaveLength(1);
    expect(responses[0]!.errorCode).toBe('CONNECTION_ERROR');
    expect(responses[0]!.errorMessage).toMatch(/^Could not reach the Gemini API for model "gemini-2\.5-flash": fetch failed/);
  });

  it('a prompt blocked by safety (no candidates) → errorCode = block reason', async () => {
    server = await startReplayServer();
    server.enqueue({
      endpoint: ':generateContent',
      json: { promptFeedback: { blockReason: 'SAFETY', blockReasonMessage: 'The prompt was blocked.' }, modelVersion: 'gemini-2.5-flash' },
    });
    const [response] = await collect(geminiAt(server, 'gemini-2.5-flash'), createLlmRequest({ contents: [createUserContent('hi')] }), false);
    expect(response).toEqual({ errorCode: 'SAFETY', errorMessage: 'The prompt was blocked.', modelVersion: 'gemini-2.5-flash' });
  });

  it('a candidate with no content and finish reason MALFORMED_FUNCTION_CALL → error response', async () => {
    server = await startReplayServer();
    server.enqueue({ endpoint: ':generateContent', json: { candidates: [{ finishReason: 'MALFORMED_FUNCTION_CALL' }] } });
    const [response] = await collect(geminiAt(server, 'gemini-2.5-flash'), createLlmRequest({ contents: [createUserContent('hi')] }), false);
    expect(response).toEqual({
      finishReason: 'MALFORMED_FUNCTION_CALL',
      errorCode: 'MALFORMED_FUNCTION_CALL',
      errorMessage: 'Gemini stopped with finish reason MALFORMED_FUNCTION_CALL and returned no content.',
    });
  });

  it('bad input: streamed call arguments with an unreadable path → MODEL_ERROR naming the path', async () => {
    server = await startReplayServer();
    server.enqueue({
      endpoint: ':streamGenerateContent',
      sse: [
        { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'f', willContinue: true } }] } }] },
        { candidates: [{ content: { role: 'model', parts: [{ functionCall: { partialArgs: [{ jsonPath: 'x', stringValue: 'y' }] } }] } }] },
      ],
    });
    const responses = await collect(geminiAt(server, 'gemini-3-pro-preview'), createLlmRequest({ contents: [createUserContent('hi')] }), true);
    expect(responses).toEqual([
      {
        errorCode: 'MODEL_ERROR',
        errorMessage: 'Gemini request for model "gemini-3-pro-preview" failed: partial function-call argument path "x" does not start with "$"',
      },
    ]);
  });

  it('a candidate cut at MAX_TOKENS keeps its content and the finish reason, without an error', async () => {
    server = await startReplayServer();
    server.enqueue({
      endpoint: ':generateContent',
      json: { candidates: [{ content: { role: 'model', parts: [{ text: 'Once upon' }] }, finishReason: 'MAX_TOKENS' }] },
    });
    const [response] = await collect(geminiAt(server, 'gemini-2.5-flash'), createLlmRequest({ contents: [createUserContent('hi')] }), false);
    expect(response).toEqual({ content: { role: 'model', parts: [{ text: 'Once upon' }] }, finishReason: 'MAX_TOKENS' });
  });
});

describe('abort', () => {
  it('a signal aborted mid-stream ends the generator cleanly, without an error response', async () => {
    server = await startReplayServer({ script: [{ fixture: 'gemini--google-search-grounding-stream.sse', pauseAfterEvents: 2 }] });
    const controller = new AbortController();
    const seen: string[] = [];
    const request = createLlmRequest({ contents: [createUserContent('weather?')] });
    for await (const response of geminiAt(server, 'gemini-2.5-pro').generateContent(request, { stream: true, signal: controller.signal })) {
      seen.push(response.partial ? 'partial' : `final ${response.errorCode ?? ''}`);
      if (seen.length === 2) controller.abort();
    }
    expect(seen).toEqual(['partial', 'partial']);
  });

  it('an already aborted signal makes no request and yields nothing', async () => {
    server = await startReplayServer();
    const responses = await collect(
      geminiAt(server, 'gemini-2.5-flash'),
      createLlmRequest({ contents: [createUserContent('hi')] }),
      false,
      AbortSignal.abort(),
    );
    expect(responses).toEqual([]);
    expect(server.requests).toEqual([]);
  });

  it('leaving the for-await early closes the stream', async () => {
    server = await startReplayServer({ script: [{ fixture: 'gemini--google-search-grounding-stream.sse', pauseAfterEvents: 3 }] });
    const request = createLlmRequest({ contents: [createUserContent('weather?')] });
    let count = 0;
    for await (const response of geminiAt(server, 'gemini-2.5-pro').generateContent(request, { stream: true })) {
      expect(response.partial).toBe(true);
      if (++count === 1) break;
    }
    expect(count).toBe(1);
  });
});
