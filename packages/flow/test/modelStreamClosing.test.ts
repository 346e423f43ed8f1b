// A model's response stream is an async iterator the flow must close whenever it stops reading it
// before its end, as a `for await` loop would (#24: the flow reads it by hand): the consumer
// stopping, the run cancelled mid-stream, an after-model callback failing on a response. A model
// adapter releases its HTTP stream in `finally`; a stream never closed keeps the socket open.
import { describe, expect, it } from 'vitest';
import { InMemoryRunner, LlmAgent, createUserContent, type Event, type LlmResponse, type Model } from '../src/index.js';

/** A model streaming `count` partial texts then the whole, recording how its stream ended. */
function streamingModel(count: number, onChunk?: (index: number) => void) {
  const record = { sent: 0, closed: false, finished: false };
  const model: Model = {
    model: 'streaming',
    async *generateContent(): AsyncGenerator<LlmResponse> {
      try {
        for (let i = 0; i < count; i++) {
          record.sent++;
          onChunk?.(i);
          yield { partial: true, content: { role: 'model', parts: [{ text: `chunk ${i} ` }] } };
        }
        yield { content: { role: 'model', parts: [{ text: 'all chunks' }] } };
        record.finished = true;
      } finally {
        record.closed = true;
      }
    },
  };
  return { model, record };
}

const message = { userId: 'u', sessionId: 's', newMessage: createUserContent('go') };

describe("the model's stream is closed when the flow stops reading it", () => {
  it('when the consumer stops reading mid-stream', async () => {
    const { model, record } = streamingModel(10);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model }), appName: 'test', autoCreateSession: true });
    const seen: Event[] = [];
    for await (const event of runner.runAsync(message)) {
      seen.push(event);
      if (seen.length === 2) break;
    }
    expect(record.closed).toBe(true);
    expect(record.finished).toBe(false);
    expect(record.sent).toBeLessThan(10);
  });

  it('when the run is cancelled mid-stream: nothing more is read from it, and no event follows', async () => {
    const controller = new AbortController();
    const { model, record } = streamingModel(10, (index) => {
      if (index === 2) controller.abort();
    });
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model }), appName: 'test', autoCreateSession: true });
    const events: Event[] = [];
    for await (const event of runner.runAsync({ ...message, signal: controller.signal })) events.push(event);
    expect(events.map((event) => event.content?.parts?.[0]?.text)).toEqual(['chunk 0 ', 'chunk 1 ']);
    expect(record.closed).toBe(true);
    expect(record.sent).toBe(3);
  });

  it('when an after-model callback fails on a response: the stream is closed and the error ends the step (MODEL_ERROR)', async () => {
    const { model, record } = streamingModel(10);
    const agent = new LlmAgent({
      name: 'a',
      model,
      afterModelCallback: ({ response }) => {
        if (response.content?.parts?.[0]?.text === 'chunk 1 ') throw new Error('callback broke');
      },
    });
    const runner = new InMemoryRunner({ agent, appName: 'test', autoCreateSession: true });
    const events: Event[] = [];
    for await (const event of runner.runAsync(message)) events.push(event);
    expect(record.closed).toBe(true);
    expect(record.sent).toBe(2);
    expect(events.at(-1)).toMatchObject({ errorCode: 'MODEL_ERROR', errorMessage: 'Model "streaming" failed: callback broke' });
    expect(events.filter((event) => event.partial).map((event) => event.content?.parts?.[0]?.text)).toEqual(['chunk 0 ']);
  });

  it('a stream that fails on its own is not closed again, and a later reply is never read from it', async () => {
    let returns = 0;
    // A stream written by hand (as an adapter may hand one), so that its return() calls are seen.
    const stream = {
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.reject(new Error('socket hang up')),
        return: () => {
          returns++;
          return Promise.resolve({ done: true, value: undefined });
        },
      }),
    };
    const model: Model = { model: 'failing', generateContent: () => stream as unknown as AsyncGenerator<LlmResponse> };
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model }), appName: 'test', autoCreateSession: true });
    const events: Event[] = [];
    for await (const event of runner.runAsync(message)) events.push(event);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ errorCode: 'MODEL_ERROR', errorMessage: 'Model "failing" failed: socket hang up' });
    expect(returns).toBe(0);
  });

  it('after a step whose calls ran, the stream is closed; a return() that throws or rejects ends the run with FLOW_ERROR, the response kept', async () => {
    for (const failure of ['throws', 'rejects', 'none'] as const) {
      let returns = 0;
      let replies = 0;
      const stream = () => {
        const first = replies++ === 0;
        let sent = false;
        return {
          [Symbol.asyncIterator]: () => ({
            next: () => {
              if (sent) return Promise.resolve({ done: true, value: undefined });
              sent = true;
              const part = first ? { functionCall: { id: 'c1', name: 'add', args: {} } } : { text: 'done' };
              return Promise.resolve({ done: false, value: { content: { role: 'model', parts: [part] } } });
            },
            return: () => {
              returns++;
              if (failure === 'throws') throw new Error('close threw');
              if (failure === 'rejects') return Promise.reject(new Error('close rejected'));
              return Promise.resolve({ done: true, value: undefined });
            },
          }),
        };
      };
      const model: Model = { model: 'hand-written', generateContent: () => stream() as unknown as AsyncGenerator<LlmResponse> };
      const add = { name: 'add', description: 'adds', declaration: () => ({ name: 'add', description: 'adds' }), run: () => ({ sum: 1 }) };
      const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model, tools: [add] }), appName: 'test', autoCreateSession: true });
      const events: Event[] = [];
      for await (const event of runner.runAsync(message)) events.push(event);
      expect(returns, failure).toBe(1);
      expect(events[1]?.content?.parts?.[0]?.functionResponse?.response, failure).toEqual({ sum: 1 });
      if (failure === 'none') expect(events.at(-1)?.content?.parts?.[0]?.text).toBe('done');
      else
        expect(events.at(-1), failure).toMatchObject({
          errorCode: 'FLOW_ERROR',
          errorMessage: failure === 'throws' ? 'close threw' : 'close rejected',
        });
    }
  });
});
