import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fixtureEntry,
  fixtureIndex,
  fixtureJson,
  fixtureRequestBody,
  fixtureText,
  splitSseEvents,
  startReplayServer,
  truncatedFixture,
  type ReplayServer,
} from '../src/index.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  chunks: Buffer[];
  text: string;
}

function post(url: string, body: unknown, signal?: AbortSignal): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, ...(signal ? { signal } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('startReplayServer', () => {
  it('listens on 127.0.0.1 and gives both SDK base URLs', async () => {
    server = await startReplayServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.openaiBaseURL).toBe(`${server.url}/v1`);
    expect(server.geminiBaseUrl).toBe(server.url);
  });

  it('replays a JSON fixture with its recorded status and content type, and records the request', async () => {
    server = await startReplayServer({ script: ['openai-chat--error-400.json'] });
    const res = await post(`${server.openaiBaseURL}/chat/completions`, { model: 'gpt-4o', messages: [] });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.text)).toEqual(fixtureJson('openai-chat--error-400.json'));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      query: '',
      body: { model: 'gpt-4o', messages: [] },
      servedBy: 'openai-chat--error-400.json',
    });
    server.assertDone();
  });

  it('writes an SSE body in several TCP writes that reassemble to the recorded bytes', async () => {
    const file = 'gemini--function-call-stream.3.sse';
    server = await startReplayServer({ script: [file] });
    const res = await post(`${server.url}/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse`, { contents: [] });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.text).toBe(fixtureText(file));
    const events = splitSseEvents(fixtureText(file));
    expect(events).toHaveLength(2);
    // Each event is split in two writes, so no single chunk holds a whole event.
    expect(res.chunks.length).toBeGreaterThanOrEqual(events.length * 2);
    expect(res.chunks.some((chunk) => events.includes(chunk.toString('utf8')))).toBe(false);
    expect(server.requests[0]).toMatchObject({ query: 'alt=sse', servedBy: file });
  });

  it('matches on the endpoint suffix, whatever the API version prefix', async () => {
    server = await startReplayServer({ script: ['gemini--function-call.1.json', 'gemini--function-call.2.json'] });
    expect((await post(`${server.url}/v1/models/gemini-2.0-flash:generateContent`, {})).status).toBe(200);
    expect((await post(`${server.url}/prefix/v1beta/models/x:generateContent`, {})).status).toBe(200);
    server.assertDone();
  });

  it('answers an unexpected request with a 500 that names what was expected', async () => {
    server = await startReplayServer({ script: ['openai-responses--parallel-function-calls.json'] });
    const res = await post(`${server.openaiBaseURL}/chat/completions`, { model: 'x' });
    expect(res.status).toBe(500);
    expect(JSON.parse(res.text).error.message).toBe(
      'replay server: unexpected POST /v1/chat/completions; expected "openai-responses--parallel-function-calls.json" (POST …/responses)',
    );
    expect(server.unexpected.map((r) => r.path)).toEqual(['/v1/chat/completions']);
    expect(server.remaining()).toBe(1);
    expect(() => server!.assertDone()).toThrow(
      'replay server: unexpected request POST /v1/chat/completions; steps never requested: "openai-responses--parallel-function-calls.json" (POST …/responses)',
    );
  });

  it('answers a request past the end of the script with a 500', async () => {
    server = await startReplayServer();
    const res = await post(`${server.openaiBaseURL}/responses`, {});
    expect(res.status).toBe(500);
    expect(JSON.parse(res.text).error.message).toBe(
      'replay server: unexpected POST /v1/responses; the script is empty (every scripted step was already served)',
    );
    expect(() => server!.assertDone()).toThrow('unexpected request POST /v1/responses');
  });

  it('rejects a GET even on the right path', async () => {
    server = await startReplayServer({ script: ['openai-chat--tool-call.1.json'] });
    const res = await new Promise<number>((resolve, reject) => {
      request(`${server!.openaiBaseURL}/chat/completions`, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(res).toBe(500);
    expect(server.unexpected).toHaveLength(1);
    expect(server.requests[0]!.body).toBeUndefined();
  });

  it('serves hand-written responses (status, headers, SSE payloads) added with enqueue', async () => {
    server = await startReplayServer();
    server.enqueue(
      { endpoint: '/chat/completions', status: 429, json: { error: { message: 'slow down' } }, headers: { 'retry-after-ms': '5' } },
      { endpoint: '/chat/completions', sse: [{ a: 1 }, '[DONE]'] },
    );
    const limited = await post(`${server.openaiBaseURL}/chat/completions`, {});
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after-ms']).toBe('5');
    expect(JSON.parse(limited.text)).toEqual({ error: { message: 'slow down' } });
    const streamed = await post(`${server.openaiBaseURL}/chat/completions`, {});
    expect(streamed.headers['content-type']).toBe('text/event-stream');
    expect(streamed.text).toBe('data: {"a":1}\n\ndata: [DONE]\n\n');
    expect(server.requests.map((r) => r.servedBy)).toEqual(['status 429', 'status 200']);
    server.assertDone();
  });

  it('holds a stream open after pauseAfterEvents until the client aborts', async () => {
    server = await startReplayServer({ script: [{ fixture: 'openai-chat--tool-call-stream.2.sse', pauseAfterEvents: 2 }] });
    const controller = new AbortController();
    const received: string[] = [];
    const done = new Promise<void>((resolve) => {
      const req = request(`${server!.openaiBaseURL}/chat/completions`, { method: 'POST', signal: controller.signal }, (res) => {
        res.on('data', (chunk: Buffer) => {
          received.push(chunk.toString('utf8'));
          if (received.join('').split('\n\n').length > 2) controller.abort();
        });
        res.on('error', () => resolve());
        res.on('close', () => resolve());
      });
      req.on('error', () => resolve());
      req.end('{}');
    });
    await done;
    const events = splitSseEvents(fixtureText('openai-chat--tool-call-stream.2.sse'));
    expect(received.join('')).toBe(events.slice(0, 2).join(''));
  });

  it('serves a body as is: an HTML page, and a truncated SSE copy of a fixture event by event', async () => {
    const file = 'openai-chat--tool-call-stream.1.sse';
    const truncated = splitSseEvents(fixtureText(file)).slice(0, 3).join('');
    expect(truncatedFixture(file, 3)).toEqual({ endpoint: '/chat/completions', status: 200, body: truncated, contentType: 'text/event-stream; charset=utf-8' });
    server = await startReplayServer({
      script: [{ endpoint: '/chat/completions', body: '<!DOCTYPE html><html><body>Bad gateway</body></html>', contentType: 'text/html' }, truncatedFixture(file, 3)],
    });
    const page = await post(`${server.openaiBaseURL}/chat/completions`, {});
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html');
    expect(page.text).toBe('<!DOCTYPE html><html><body>Bad gateway</body></html>');
    const streamed = await post(`${server.openaiBaseURL}/chat/completions`, {});
    expect(streamed.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(streamed.text).toBe(truncated);
    expect(streamed.chunks.length).toBeGreaterThanOrEqual(6);
    server.assertDone();
  });

  it('destroyAfterEvents cuts the connection mid-stream after that many events', async () => {
    const file = 'openai-chat--tool-call-stream.1.sse';
    server = await startReplayServer({ script: [{ fixture: file, destroyAfterEvents: 2 }] });
    const received: string[] = [];
    const outcome = await new Promise<string>((resolve) => {
      const req = request(`${server!.openaiBaseURL}/chat/completions`, { method: 'POST' }, (res) => {
        res.on('data', (chunk: Buffer) => received.push(chunk.toString('utf8')));
        res.on('end', () => resolve('end'));
        res.on('error', (error) => resolve(`error ${error.message}`));
      });
      req.on('error', (error) => resolve(`request error ${error.message}`));
      req.end('{}');
    });
    // The body never ended normally: the client sees the socket go away.
    expect(outcome).toBe('error aborted');
    expect(received.join('')).toBe(splitSseEvents(fixtureText(file)).slice(0, 2).join(''));
    server.assertDone();
  });

  it('heldStreams() counts the streams held open until their client leaves; waitForHeldStreams() waits for a count', async () => {
    server = await startReplayServer({ script: [{ fixture: 'openai-chat--tool-call-stream.2.sse', pauseAfterEvents: 1 }] });
    const controller = new AbortController();
    const left = new Promise<void>((resolve) => {
      const req = request(`${server!.openaiBaseURL}/chat/completions`, { method: 'POST', signal: controller.signal }, (res) => {
        res.resume();
        res.on('error', () => resolve());
      });
      req.on('error', () => resolve());
      req.end('{}');
    });
    await server.waitForHeldStreams(1);
    expect(server.heldStreams()).toBe(1);
    await expect(server.waitForHeldStreams(2, 20)).rejects.toThrow('replay server: expected 2 held streams within 20 ms, 1 are held');
    controller.abort();
    await left;
    await server.waitForHeldStreams(0);
    expect(server.heldStreams()).toBe(0);
  });

  it('close() ends a held stream', async () => {
    server = await startReplayServer({ script: [{ fixture: 'gemini--function-call-stream.3.sse', pauseAfterEvents: 1 }] });
    const ended = post(`${server.url}/v1beta/models/m:streamGenerateContent?alt=sse`, {}).then(
      (r) => r.text,
      (e: unknown) => `error: ${String(e)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server.close();
    expect(await ended).toMatch(/^(data: |error: )/);
  });
});

describe('fixtures', () => {
  it('lists the recorded fixtures with their request, status and content type', () => {
    expect(fixtureIndex().size).toBe(30);
    expect(fixtureEntry('gemini--error-404-stream-request.json')).toMatchObject({
      status: 404,
      contentType: 'text/event-stream',
      method: 'POST',
    });
  });

  it('loads a recorded request body to compare with what an SDK sent', () => {
    expect(fixtureRequestBody('openai-chat--tool-call.1.json')).toMatchObject({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'What is the largest city in the user country?' }],
    });
  });

  it('bad input: an unknown fixture name throws naming the known files', async () => {
    expect(() => fixtureText('nope.json')).toThrow(/no fixture "nope.json" in .*index.json\. Known: openai-chat--tool-call\.1\.json, /);
    await expect(startReplayServer({ script: ['nope.json'] })).rejects.toThrow('no fixture "nope.json"');
  });

  it('splits SSE bodies with LF and CRLF separators, keeping each event whole', () => {
    expect(splitSseEvents('data: 1\r\n\r\ndata: 2\r\n\r\n')).toEqual(['data: 1\r\n\r\n', 'data: 2\r\n\r\n']);
    expect(splitSseEvents('event: a\ndata: 1\n\ndata: 2')).toEqual(['event: a\ndata: 1\n\n', 'data: 2']);
  });
});
