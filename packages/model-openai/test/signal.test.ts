// Issue 9, point 12: the openai SDK adds an abort listener to the signal of every request and never
// removes it. A run shares one signal across all its model calls, so without a signal per request
// the listeners pile up (MaxListenersExceededWarning after ten). Bad input tried: 1,000 requests in
// a row on one signal (answers, streams, API errors, consumers that stop early), 20 at once, a
// caller that aborts mid-request and mid-stream.
import { getEventListeners } from 'node:events';
import { createLlmRequest, createUserContent, type LlmResponse } from '@adkit/flow';
import { startReplayServer, type ReplayServer, type ReplayStep } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, openaiAt, processWarnings } from './helpers.js';

let server: ReplayServer;
afterEach(async () => {
  await server.close();
});

const hello = createLlmRequest({ contents: [createUserContent('hi')] });
const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('issue 9: no abort listeners left on the caller’s signal', () => {
  it('1,000 sequential requests (answers, streams, API errors, early stops) leave none and print no MaxListenersExceededWarning', async () => {
    server = await startReplayServer({ writeDelayMs: 0 });
    const chat = openaiAt(server, 'gpt-4o', { maxRetries: 0 });
    const responses = openaiAt(server, 'gpt-4o', { api: 'responses', maxRetries: 0 });
    const caller = new AbortController().signal;
    const kinds: Array<{ step: ReplayStep; run: () => Promise<LlmResponse[]> }> = [
      { step: 'openai-chat--tool-call.1.json', run: () => collect(chat, hello, false, caller) },
      { step: 'openai-chat--tool-call-stream.1.sse', run: () => collect(chat, hello, true, caller) },
      { step: 'openai-responses--function-call-stream.sse', run: () => collect(responses, hello, true, caller) },
      { step: 'openai-chat--error-400.json', run: () => collect(chat, hello, false, caller) },
      {
        // The consumer stops at the first partial response.
        step: 'openai-chat--tool-call-stream.2.sse',
        run: async () => {
          for await (const response of chat.generateContent(hello, { stream: true, signal: caller })) return [response];
          return [];
        },
      },
    ];
    const seen = new Map<string, number>();
    const warnings = await processWarnings(async () => {
      for (let i = 0; i < 1000; i++) {
        const kind = kinds[i % kinds.length]!;
        server.enqueue(kind.step);
        const [first] = await kind.run();
        const label = first?.errorCode ?? (first?.partial ? 'partial' : 'answer');
        seen.set(label, (seen.get(label) ?? 0) + 1);
      }
    });
    expect(Object.fromEntries(seen)).toEqual({ answer: 600, '400': 200, partial: 200 });
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    expect(listeners(caller)).toBe(0);
    server.assertDone();
  }, 30_000);

  it('20 parallel requests leave none and print no warning', async () => {
    server = await startReplayServer({ writeDelayMs: 0 });
    const model = openaiAt(server, 'gpt-4o', { maxRetries: 0 });
    const caller = new AbortController().signal;
    const warnings = await processWarnings(async () => {
      server.enqueue(...Array.from({ length: 20 }, () => 'openai-chat--tool-call-stream.1.sse'));
      const results = await Promise.all(Array.from({ length: 20 }, () => collect(model, hello, true, caller)));
      expect(results.map((r) => r.map((response) => response.content?.parts?.[0]?.functionCall?.name))).toEqual(
        Array.from({ length: 20 }, () => ['get_capital']),
      );
    });
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    expect(listeners(caller)).toBe(0);
    server.assertDone();
  });
});

describe('issue 9: the caller’s signal still aborts what is in flight', () => {
  it('20 parallel streams held open: one listener while they run; aborting the caller ends them all, closes their connections, leaves none', async () => {
    server = await startReplayServer({ writeDelayMs: 0 });
    const model = openaiAt(server, 'gpt-4o', { maxRetries: 0 });
    const controller = new AbortController();
    server.enqueue(...Array.from({ length: 20 }, () => ({ fixture: 'openai-chat--tool-call-stream.2.sse', pauseAfterEvents: 3 })));
    const warnings = await processWarnings(async () => {
      const runs = Array.from({ length: 20 }, () => collect(model, hello, true, controller.signal));
      await server.waitForHeldStreams(20);
      expect(listeners(controller.signal)).toBe(1);
      controller.abort();
      const results = await Promise.all(runs);
      // Each saw the partial text that came before the abort, and no final response.
      for (const responses of results) expect(responses.every((r) => r.partial)).toBe(true);
    });
    await server.waitForHeldStreams(0);
    expect(listeners(controller.signal)).toBe(0);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it.each([['chat'], ['responses']] as const)('%s: a request waiting for its answer is aborted with the caller’s signal', async (api) => {
    // Headers never come: the request is in flight when the caller aborts.
    const fixture = api === 'chat' ? 'openai-chat--tool-call-stream.2.sse' : 'openai-responses--function-call-stream.sse';
    server = await startReplayServer({ script: [{ fixture, pauseAfterEvents: 0 }] });
    const controller = new AbortController();
    const run = collect(openaiAt(server, 'gpt-4o', { api, maxRetries: 0 }), hello, false, controller.signal);
    await server.waitForHeldStreams(1);
    controller.abort();
    expect(await run).toEqual([]);
    await server.waitForHeldStreams(0);
    expect(listeners(controller.signal)).toBe(0);
  });

  it('a consumer that stops early releases the connection and the listener', async () => {
    server = await startReplayServer({ script: [{ fixture: 'openai-chat--tool-call-stream.2.sse', pauseAfterEvents: 2 }] });
    const caller = new AbortController().signal;
    for await (const response of openaiAt(server, 'gpt-4o').generateContent(hello, { stream: true, signal: caller })) {
      expect(response.partial).toBe(true);
      await server.waitForHeldStreams(1);
      break;
    }
    await server.waitForHeldStreams(0);
    expect(listeners(caller)).toBe(0);
    expect(caller.aborted).toBe(false);
  });
});
