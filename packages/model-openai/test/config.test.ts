import { isAdkitError } from '@adkit/flow';
import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openai } from '../src/index.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('openai() construction (bad input throws ConfigError naming the fix)', () => {
  it('rejects an empty model name', () => {
    expect(() => openai(' ', { apiKey: 'k' })).toThrow(
      'openai(model): the model name must be a non-empty string such as "gpt-4.1-mini"; got " ".',
    );
  });

  it('rejects a missing API key and says local servers take any string', () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    let thrown: unknown;
    try {
      openai('gpt-4o', { baseURL: 'http://localhost:11434/v1' });
    } catch (error) {
      thrown = error;
    }
    expect(isAdkitError(thrown)).toBe(true);
    expect((thrown as Error).message).toBe(
      'openai("gpt-4o"): no API key. Pass {apiKey} or set OPENAI_API_KEY (for a local OpenAI-compatible server such as Ollama, any non-empty string works).',
    );
  });

  it('rejects an unknown api and systemRole', () => {
    expect(() => openai('gpt-4o', { apiKey: 'k', api: 'assistants' as never })).toThrow(
      `openai("gpt-4o"): api must be 'chat' or 'responses'; got "assistants".`,
    );
    expect(() => openai('gpt-4o', { apiKey: 'k', systemRole: 'user' as never })).toThrow(
      `openai("gpt-4o"): systemRole must be 'system' or 'developer'; got "user".`,
    );
  });

  it('rejects a client together with client settings, and uses a client alone', () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:1/v1' });
    expect(() => openai('gpt-4o', { client, baseURL: 'http://x/v1', maxRetries: 1 })).toThrow(
      'openai("gpt-4o"): pass either `client` or client settings (baseURL, maxRetries), not both; configure the client you pass instead.',
    );
    const model = openai('gpt-4o', { client, api: 'responses' });
    expect(model.client).toBe(client);
    expect(model.api).toBe('responses');
  });

  it('defaults: Chat Completions, OPENAI_API_KEY and OPENAI_BASE_URL from the environment, two retries', () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-env');
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/v1');
    const model = openai('gpt-4o');
    expect(model.api).toBe('chat');
    expect(model.model).toBe('gpt-4o');
    expect(model.client.baseURL).toBe('http://127.0.0.1:9/v1');
    expect(model.client.maxRetries).toBe(2);
  });
});
