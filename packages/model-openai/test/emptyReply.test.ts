// Issue 9, point 13: a 200 reply that carries nothing is an error response saying what came, never a
// silent turn with no event. Bad input tried: `{}`, `choices: []`, `output: []`, a choice with no
// content, a proxy's HTML page (to plain and streaming requests), an empty stream.
import { createLlmRequest, createUserContent } from '@adkit/flow';
import { startReplayServer, type ReplayServer, type ResponseStep } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, openaiAt } from './helpers.js';

let server: ReplayServer;
afterEach(async () => {
  server.assertDone();
  await server.close();
});

const hello = createLlmRequest({ contents: [createUserContent('hi')] });
const html = '<!DOCTYPE html>\n<html>\n<head><title>502 Bad Gateway</title></head>\n<body><h1>502 Bad Gateway</h1></body>\n</html>\n';
const empty = (what: string) => ({ errorCode: 'EMPTY_RESPONSE', errorMessage: `OpenAI returned no answer for model "gpt-4o": ${what}.` });

describe('issue 9: Chat Completions replies that carry nothing → EMPTY_RESPONSE', () => {
  it.each([
    ['{}', { endpoint: '/chat/completions', json: {} }, 'the reply is not a chat completion (application/json: {})'],
    ['choices: []', { endpoint: '/chat/completions', json: { id: 'x', choices: [] } }, 'the reply has no choices (application/json: {"id":"x","choices":[]})'],
    [
      'a choice with no content',
      { endpoint: '/chat/completions', json: { choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'stop' }] } },
      'the answer has no content and no tool calls (finish reason "stop")',
    ],
    [
      'an HTML page',
      { endpoint: '/chat/completions', body: html, contentType: 'text/html' },
      'the reply is not a chat completion (text/html: <!DOCTYPE html> <html> <head><title>502 Bad Gateway</title></head> <body><h1>502 Bad Gateway</h1></body> </html>)',
    ],
  ] as Array<[string, ResponseStep, string]>)('%s', async (_label, step, what) => {
    server = await startReplayServer({ script: [step] });
    const [response, ...more] = await collect(openaiAt(server, 'gpt-4o'), hello, false);
    expect(more).toEqual([]);
    expect({ errorCode: response!.errorCode, errorMessage: response!.errorMessage }).toEqual(empty(what));
    expect(response!.content).toBeUndefined();
  });

  it.each([
    ['an empty stream', { endpoint: '/chat/completions', body: '', contentType: 'text/event-stream' }, 'text/event-stream'],
    ['an HTML page to a streaming request', { endpoint: '/chat/completions', body: html, contentType: 'text/html' }, 'text/html'],
  ] as Array<[string, ResponseStep, string]>)('stream: %s', async (_label, step, contentType) => {
    server = await startReplayServer({ script: [step] });
    expect(await collect(openaiAt(server, 'gpt-4o'), hello, true)).toEqual([empty(`the stream carried no events (${contentType})`)]);
  });
});

describe('issue 9: Responses API replies that carry nothing → EMPTY_RESPONSE', () => {
  it('{}', async () => {
    server = await startReplayServer({ script: [{ endpoint: '/responses', json: {} }] });
    expect(await collect(openaiAt(server, 'gpt-4o', { api: 'responses' }), hello, false)).toEqual([
      empty('the reply is not a Responses API response (application/json: {})'),
    ]);
  });

  it('a completed response with output: []', async () => {
    server = await startReplayServer({ script: [{ endpoint: '/responses', json: { object: 'response', status: 'completed', output: [] } }] });
    expect(await collect(openaiAt(server, 'gpt-4o', { api: 'responses' }), hello, false)).toEqual([
      { finishReason: 'STOP', ...empty('the response has no output (status "completed")') },
    ]);
  });

  it('an HTML page (which the SDK cannot read as a response)', async () => {
    server = await startReplayServer({ script: [{ endpoint: '/responses', body: html, contentType: 'text/html' }] });
    const [response] = await collect(openaiAt(server, 'gpt-4o', { api: 'responses' }), hello, false);
    expect(response!.errorCode).toBe('EMPTY_RESPONSE');
    expect(response!.errorMessage).toMatch(/^OpenAI returned no answer for model "gpt-4o": the reply could not be read \(text\/html: .+\)\.$/s);
  });

  it('stream: an empty stream', async () => {
    server = await startReplayServer({ script: [{ endpoint: '/responses', body: '', contentType: 'text/event-stream' }] });
    expect(await collect(openaiAt(server, 'gpt-4o', { api: 'responses' }), hello, true)).toEqual([
      empty('the stream carried no events (text/event-stream)'),
    ]);
  });
});
