// #23 point 13 through the real @google/genai SDK against local HTTP servers on 127.0.0.1: an
// answer over maxResponseBytes is a RESPONSE_TOO_LARGE error response, read no further (1 MB limit
// against an endless body, unary and streamed, one endless SSE event included; the 64 MiB default
// against a body generated past it), and the client's own fetch is still the one used.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLlmRequest, createUserContent } from '@adkit/flow';
import { DEFAULT_MAX_RESPONSE_BYTES } from '@adkit/flow/model-kit';
import { GoogleGenAI } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';
import { collect } from './helpers.js';

interface Local {
  url: string;
  requests: number;
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
  local.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  open.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return local;
}

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
const model = (url: string, maxResponseBytes?: number) =>
  gemini('gemini-2.5-flash', { apiKey: 'AIza-test', httpOptions: { baseUrl: url }, ...(maxResponseBytes ? { maxResponseBytes } : {}) });
const TOO_LARGE = (limit: number) => ({
  errorCode: 'RESPONSE_TOO_LARGE',
  errorMessage: `The answer of the Gemini API for model "gemini-2.5-flash" is larger than ${limit} bytes (maxResponseBytes); the rest was not read. Ask for a shorter answer, or raise maxResponseBytes.`,
});
const HEAD = '{"candidates":[{"content":{"role":"model","parts":[{"text":"';
const TAIL = '"}]},"finishReason":"STOP"}]}';

describe('#23 point 13: Gemini answers have a size limit', () => {
  it('an endless unary answer over maxResponseBytes is RESPONSE_TOO_LARGE; the server is cut off near the limit', async () => {
    const local = await localServer((_req, res, l) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      endless(res, l, HEAD, TAIL);
    });
    expect(await collect(model(local.url, 1_000_000), request(), false)).toEqual([TOO_LARGE(1_000_000)]);
    await local.closed;
    expect(local.written).toBeLessThan(64 * 1024 * 1024);
  });

  it('one endless SSE event is RESPONSE_TOO_LARGE, not "Invalid string length"', async () => {
    const local = await localServer((_req, res, l) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      endless(res, l, `data: ${HEAD}`, `${TAIL}\n\n`);
    });
    const responses = await collect(model(local.url, 1_000_000), request(), true);
    expect(responses.at(-1)).toEqual(TOO_LARGE(1_000_000));
    await local.closed;
  });

  it(`the default limit (${DEFAULT_MAX_RESPONSE_BYTES} bytes) stops a body generated past it`, async () => {
    const local = await localServer((_req, res, l) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      endless(res, l, HEAD, TAIL, DEFAULT_MAX_RESPONSE_BYTES + 8 * 1024 * 1024);
    });
    expect(await collect(model(local.url), request(), false)).toEqual([TOO_LARGE(DEFAULT_MAX_RESPONSE_BYTES)]);
  });

  it('an answer within the limit passes; a given client keeps its own fetch; a bad option is a ConfigError', async () => {
    const body = JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'hello' }] }, finishReason: 'STOP' }] });
    const local = await localServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const fine = await collect(model(local.url, body.length), request(), false);
    expect(fine[0]!.content!.parts![0]!.text).toBe('hello');

    let fetched = 0;
    const client = new GoogleGenAI({
      apiKey: 'AIza-test',
      httpOptions: {
        baseUrl: local.url,
        fetch: (input, init) => {
          fetched++;
          return fetch(input, init);
        },
      },
    });
    const viaClient = await collect(gemini('gemini-2.5-flash', { client, maxResponseBytes: body.length }), request(), false);
    expect(viaClient[0]!.content!.parts![0]!.text).toBe('hello');
    expect(fetched).toBe(1);
    const tooSmall = await collect(gemini('gemini-2.5-flash', { client, maxResponseBytes: 10 }), request(), false);
    expect(tooSmall).toEqual([TOO_LARGE(10)]);
    expect(fetched).toBe(2);

    expect(() => gemini('gemini-2.5-flash', { apiKey: 'AIza-test', maxResponseBytes: -1 })).toThrow(
      'maxResponseBytes must be a positive whole number of bytes, got -1.',
    );
  });
});
