// #24 cold start: importing @adkit/model-openai and calling openai() load no part of the openai SDK;
// the first request loads it (once, even for concurrent first requests), a client you pass is used
// as it is, and bad options still fail at openai(), not at the first request.
import { createLlmRequest, createUserContent } from '@adkit/flow';
import { afterEach, describe, expect, it, vi } from 'vitest';

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('openai', async (importOriginal) => {
  loads.count++;
  return await importOriginal<typeof import('openai')>();
});

afterEach(() => {
  vi.unstubAllEnvs();
});

const request = createLlmRequest({ contents: [createUserContent('hi')] });

describe('the openai SDK loads on first use (#24)', () => {
  it('import and openai() load nothing; concurrent first requests load it once and reach the server', async () => {
    const { openai } = await import('../src/index.js');
    // Port 9 (discard) is closed on 127.0.0.1: each request ends as a connection error.
    const model = openai('gpt-4o', { apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0 });
    expect(loads.count).toBe(0);
    const answers = await Promise.all(
      [1, 2, 3].map(async () => {
        const responses = [];
        for await (const response of model.generateContent(request, { stream: false })) responses.push(response);
        return responses;
      }),
    );
    expect(loads.count).toBe(1);
    for (const responses of answers) expect(responses).toEqual([expect.objectContaining({ errorCode: 'CONNECTION_ERROR' })]);
    // The client made for the first request is the one `client` shows.
    expect(model.client.baseURL).toBe('http://127.0.0.1:9/v1');
  });

  it('bad options still throw at openai(), before any load', async () => {
    const { openai } = await import('../src/index.js');
    vi.stubEnv('OPENAI_API_KEY', '');
    const before = loads.count;
    expect(() => openai('gpt-4o')).toThrow(/no API key/);
    expect(loads.count).toBe(before);
  });

  it('an aborted request returns before loading anything', async () => {
    vi.resetModules();
    loads.count = 0;
    const { openai } = await import('../src/index.js');
    const model = openai('gpt-4o', { apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1' });
    for await (const response of model.generateContent(request, { stream: false, signal: AbortSignal.abort() })) expect.fail(String(response));
    expect(loads.count).toBe(0);
  });
});
