// Issue 9, point 13: a 200 reply that carries nothing is an error response saying what came, never a
// silent turn with no event. Bad input tried: `{}`, `candidates: []`, a candidate with no content,
// a proxy's HTML page (to plain and streaming requests), an empty stream, chunks without candidates.
import { createLlmRequest, createUserContent } from '@adkit/flow';
import { startReplayServer, type ReplayServer, type ResponseStep } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, geminiAt } from './helpers.js';

let server: ReplayServer;
afterEach(async () => {
  server.assertDone();
  await server.close();
});

const hello = createLlmRequest({ contents: [createUserContent('hi')] });
const html = '<!DOCTYPE html>\n<html>\n<head><title>502 Bad Gateway</title></head>\n<body><h1>502 Bad Gateway</h1></body>\n</html>\n';
const empty = (what: string) => ({ errorCode: 'EMPTY_RESPONSE', errorMessage: `Gemini returned no answer for model "gemini-2.5-flash": ${what}.` });

describe('issue 9: Gemini replies that carry nothing → EMPTY_RESPONSE', () => {
  it.each([
    ['{}', { endpoint: ':generateContent', json: {} }, empty('the reply has no candidates ({})')],
    [
      'candidates: []',
      { endpoint: ':generateContent', json: { candidates: [], modelVersion: 'gemini-2.5-flash' } },
      empty('the reply has no candidates ({"candidates":[],"modelVersion":"gemini-2.5-flash"})'),
    ],
    [
      'a candidate with no content',
      { endpoint: ':generateContent', json: { candidates: [{ content: { role: 'model' }, finishReason: 'STOP' }] } },
      { finishReason: 'STOP', ...empty('the answer has no content (finish reason STOP)') },
    ],
    [
      'an HTML page',
      { endpoint: ':generateContent', body: html, contentType: 'text/html' },
      empty(`the reply is not JSON (Unexpected token '<', "<!DOCTYPE "... is not valid JSON)`),
    ],
  ] as Array<[string, ResponseStep, object]>)('%s', async (_label, step, expected) => {
    server = await startReplayServer({ script: [step] });
    expect(await collect(geminiAt(server, 'gemini-2.5-flash'), hello, false)).toEqual([expected]);
  });

  it.each([
    ['an empty stream', { endpoint: ':streamGenerateContent', body: '', contentType: 'text/event-stream' }, 'the stream carried no chunks'],
    [
      'an HTML page to a streaming request',
      { endpoint: ':streamGenerateContent', body: html, contentType: 'text/html' },
      'the stream broke off before any chunk (Incomplete JSON segment at the end)',
    ],
    ['chunks without candidates', { endpoint: ':streamGenerateContent', sse: [{}, {}] }, 'the reply has no candidates (2 chunks, the last {})'],
  ] as Array<[string, ResponseStep, string]>)('stream: %s', async (_label, step, what) => {
    server = await startReplayServer({ script: [step] });
    expect(await collect(geminiAt(server, 'gemini-2.5-flash'), hello, true)).toEqual([empty(what)]);
  });
});
