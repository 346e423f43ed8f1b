// #23 points 12 and 13 through the real openai SDK against local HTTP servers on 127.0.0.1:
// `timeout` covers a stream that stalls after its headers (and a body that stalls unstreamed);
// aborting a run ends it during the SDK's Retry-After wait, and the SDK's next attempt never goes
// out; an answer over maxResponseBytes is a RESPONSE_TOO_LARGE error response, read no further
// (1 MB limit against an endless body; the 64 MiB default against a body generated past it).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemoryRunner, LlmAgent, createLlmRequest, createUserContent, type Event } from '@adkit/flow';
import { DEFAULT_MAX_RESPONSE_BYTES } from '@adkit/flow/model-kit';
import { startReplayServer } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { openai } from '../src/index.js';
import { collect } from './helpers.js';

interface Local {
  url: string;
  requests: number;
  /** Bytes the server managed to write before the client went away. */
  written: number;
  closed: Promise<void>;
}

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

async function localServer(handler: (req: IncomingMessage, res: ServerResponse, local: Local) => void): Promise<Local> {
  let markClosed!: () => void;
  const local: Local = { url: '', requests: 0, written: 0, closed: new Promise((resolve) => (markClosed = resolve)) };
  const server = createServer((req, res) => {
    local.requests++;
    res.on('close', markClosed);
    req.resume();
    req.on('end', () => handler(req, res, local));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  local.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  open.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return local;
}

/** Writes `head`, then 1 MiB chunks of `a` (as fast as the client reads) until `total` bytes or the client leaves, then `tail`. */
function endless(res: ServerResponse, local: Local, head: string, tail: string, total = Infinity): void {
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  res.write(head);
  const pump = () => {
    while (local.written < total) {
      if (res.destroyed) return;
      local.written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end(tail);
  };
  pump();
}

const request = () => createLlmRequest({ contents: [createUserContent('hi')] });

describe('#23 point 12: timeout covers a reply that stalls after its headers', () => {
  it('a stream that sends two events then nothing ends with TIMEOUT after `timeout` ms of silence', async () => {
    const server = await startReplayServer({ script: [{ fixture: 'openai-chat--tool-call-stream.1.sse', pauseAfterEvents: 2 }] });
    open.push(() => server.close());
    const model = openai('gpt-4o', { apiKey: 'sk-test', baseURL: server.openaiBaseURL, timeout: 300, maxRetries: 0 });
    const responses = await collect(model, request(), true);
    expect(responses.at(-1)).toEqual({
      errorCode: 'TIMEOUT',
      errorMessage: `The OpenAI API at ${server.openaiBaseURL} stopped sending its answer for model "gpt-4o": nothing arrived for 300 ms (timeout).`,
    });
    // The stalled stream was closed by the client, not left open.
    await server.waitForHeldStreams(0);
  });

  it('an unstreamed body that stalls after its headers ends with TIMEOUT too', async () => {
    const local = await localServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"c1","object":"chat.completion","choices":[');
    });
    const model = openai('gpt-4o', { apiKey: 'sk-test', baseURL: local.url, timeout: 300, maxRetries: 0 });
    const responses = await collect(model, request(), false);
    expect(responses).toEqual([
      { errorCode: 'TIMEOUT', errorMessage: `The OpenAI API at ${local.url} stopped sending its answer for model "gpt-4o": nothing arrived for 300 ms (timeout).` },
    ]);
    await local.closed;
  });
});

describe('#23 point 12: aborting a run ends the SDK\'s Retry-After wait', () => {
  async function abortDuringRetryWait(headers: Record<string, string>) {
    const local = await localServer((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }));
    });
    const agent = new LlmAgent({ name: 'a', model: openai('gpt-4o', { apiKey: 'sk-test', baseURL: local.url, maxRetries: 2 }) });
    const runner = new InMemoryRunner({ agent, autoCreateSession: true });
    const controller = new AbortController();
    const events: Event[] = [];
    const run = (async () => {
      for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('hi'), signal: controller.signal }))
        events.push(event);
    })();
    while (local.requests === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    // The 429 has been answered; the SDK now sleeps before its next attempt.
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(new Error('user left'));
    await run;
    return { local, events, runner };
  }

  it('Retry-After: 60 — runAsync returns on the abort, with no model error event, after one request', async () => {
    const { local, events, runner } = await abortDuringRetryWait({ 'retry-after': '60' });
    expect(local.requests).toBe(1);
    expect(events.filter((event) => event.errorCode)).toEqual([]);
    const session = await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId: 's' });
    expect(session!.events.map((event) => event.author)).toEqual(['user']);
  });

  it('the SDK\'s next attempt never goes out once the run is aborted (retry-after-ms: 300, watched past it)', async () => {
    const { local } = await abortDuringRetryWait({ 'retry-after-ms': '300' });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(local.requests).toBe(1);
  });
});

describe('#23 point 13: answers have a size limit', () => {
  it('an endless unstreamed answer over maxResponseBytes is RESPONSE_TOO_LARGE, and the server is cut off near the limit', async () => {
    const local = await localServer((_req, res, l) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      endless(res, l, '{"id":"c1","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"', '"}}]}');
    });
    const model = openai('gpt-4o', { apiKey: 'sk-test', baseURL: local.url, maxRetries: 0, maxResponseBytes: 1_000_000 });
    const responses = await collect(model, request(), false);
    expect(responses).toEqual([
      {
        errorCode: 'RESPONSE_TOO_LARGE',
        errorMessage: 'The answer of the OpenAI API for model "gpt-4o" is larger than 1000000 bytes (maxResponseBytes); the rest was not read. Ask for a shorter answer, or raise maxResponseBytes.',
      },
    ]);
    await local.closed;
    // Socket buffers hold a few MiB at most; an unguarded client would have read on and on.
    expect(local.written).toBeLessThan(64 * 1024 * 1024);
  });

  it('one endless SSE event (no "Invalid string length") is RESPONSE_TOO_LARGE, streamed, on both APIs', async () => {
    for (const api of ['chat', 'responses'] as const) {
      const local = await localServer((_req, res, l) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        endless(res, l, 'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"', '"}}]}\n\n');
      });
      const model = openai('gpt-4o', { apiKey: 'sk-test', baseURL: local.url, maxRetries: 0, maxResponseBytes: 2_000_000, api });
      const responses = await collect(model, request(), true);
      expect(responses.at(-1)!.errorCode).toBe('RESPONSE_TOO_LARGE');
      await local.closed;
    }
  });

  it(`the default limit (${DEFAULT_MAX_RESPONSE_BYTES} bytes) stops a body generated past it`, async () => {
    const local = await localServer((_req, res, l) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      endless(res, l, '{"id":"c1","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"', '"}}]}', DEFAULT_MAX_RESPONSE_BYTES + 8 * 1024 * 1024);
    });
    const model = openai('gpt-4o', { apiKey: 'sk-test', baseURL: local.url, maxRetries: 0 });
    const responses = await collect(model, request(), false);
    expect(responses.map((response) => response.errorCode)).toEqual(['RESPONSE_TOO_LARGE']);
    expect(responses[0]!.errorMessage).toContain(`larger than ${DEFAULT_MAX_RESPONSE_BYTES} bytes`);
  });

  it('an answer within the limit passes; a Content-Length over it fails before the body is read; a bad option is a ConfigError', async () => {
    const body = JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'hello' } }] });
    const ok = await localServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const fine = await collect(openai('gpt-4o', { apiKey: 'sk-test', baseURL: ok.url, maxResponseBytes: body.length }), request(), false);
    expect(fine[0]!.content!.parts![0]!.text).toBe('hello');

    const declared = await localServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(500 * 1024 * 1024) });
      res.write('{');
    });
    const refused = await collect(openai('gpt-4o', { apiKey: 'sk-test', baseURL: declared.url, maxRetries: 0, maxResponseBytes: 1_000_000 }), request(), false);
    expect(refused.map((response) => response.errorCode)).toEqual(['RESPONSE_TOO_LARGE']);

    expect(() => openai('gpt-4o', { apiKey: 'sk-test', maxResponseBytes: 0 })).toThrow('maxResponseBytes must be a positive whole number of bytes, got 0.');
  });
});
