import { createLlmRequest, createModelContent, createUserContent, isAdkitError } from '@adkit/flow';
import { GoogleGenAI } from '@google/genai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gemini } from '../src/index.js';
import { CONTINUE_TEXT, EMPTY_CONTENTS_TEXT, isGeminiThoughtSignature, toGenaiRequest } from '../src/toGenaiRequest.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('gemini() construction (bad input throws ConfigError naming the fix)', () => {
  it('rejects an empty model name', () => {
    expect(() => gemini('', { apiKey: 'k' })).toThrow(
      'gemini(model): the model name must be a non-empty string such as "gemini-2.5-flash"; got "".',
    );
  });

  it('rejects a missing API key when no environment variable is set', () => {
    vi.stubEnv('GEMINI_API_KEY', '');
    vi.stubEnv('GOOGLE_API_KEY', '');
    let thrown: unknown;
    try {
      gemini('gemini-2.5-flash');
    } catch (error) {
      thrown = error;
    }
    expect(isAdkitError(thrown)).toBe(true);
    expect((thrown as Error).message).toBe(
      'gemini("gemini-2.5-flash"): no API key. Pass {apiKey}, set GEMINI_API_KEY or GOOGLE_API_KEY, or use Vertex AI with {vertexai: true, project, location}.',
    );
  });

  it('reads GEMINI_API_KEY from the environment', () => {
    vi.stubEnv('GEMINI_API_KEY', 'AIza-env');
    expect(gemini('gemini-2.5-flash').model).toBe('gemini-2.5-flash');
  });

  it('rejects a client together with client settings', () => {
    const client = new GoogleGenAI({ apiKey: 'k' });
    expect(() => gemini('gemini-2.5-flash', { client, apiKey: 'other' })).toThrow(
      'gemini("gemini-2.5-flash"): pass either `client` or client settings (apiKey), not both; configure the client you pass instead.',
    );
    expect(gemini('gemini-2.5-flash', { client }).client).toBe(client);
  });

  it('wraps a client the SDK cannot create (Vertex AI without project or key) in a ConfigError', () => {
    vi.stubEnv('GOOGLE_CLOUD_PROJECT', '');
    vi.stubEnv('GOOGLE_CLOUD_LOCATION', '');
    vi.stubEnv('GOOGLE_API_KEY', '');
    vi.stubEnv('GEMINI_API_KEY', '');
    expect(() => gemini('gemini-2.5-flash', { vertexai: true })).toThrow(/^gemini\("gemini-2.5-flash"\): could not create the Gemini client: /);
  });
});

describe('request mapping', () => {
  it('uses req.model when set, else the model name; passes the signal as abortSignal', () => {
    const signal = new AbortController().signal;
    const fromModel = toGenaiRequest(createLlmRequest({ contents: [createUserContent('hi')] }), 'gemini-2.5-flash', { vertexai: false, signal });
    expect(fromModel.model).toBe('gemini-2.5-flash');
    expect(fromModel.config!.abortSignal).toBe(signal);
    const fromRequest = toGenaiRequest(createLlmRequest({ model: 'gemini-2.5-pro', contents: [createUserContent('hi')] }), 'x', { vertexai: false });
    expect(fromRequest.model).toBe('gemini-2.5-pro');
    expect(fromRequest.config!.abortSignal).toBeUndefined();
  });

  it('passes generation settings, tool config and native tools through; drops labels for the Gemini API', () => {
    const request = createLlmRequest({
      contents: [createUserContent('hi')],
      config: {
        temperature: 0.2,
        topP: 0.9,
        maxOutputTokens: 100,
        stopSequences: ['END'],
        seed: 7,
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'object' },
        thinkingConfig: { includeThoughts: true },
        toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
        tools: [{ googleSearch: {} }, { codeExecution: {} }],
        labels: { team: 'a' },
      },
    });
    const { config } = toGenaiRequest(request, 'gemini-2.5-flash', { vertexai: false });
    expect(config).toEqual({
      temperature: 0.2,
      topP: 0.9,
      maxOutputTokens: 100,
      stopSequences: ['END'],
      seed: 7,
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object' },
      thinkingConfig: { includeThoughts: true },
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      tools: [{ googleSearch: {} }, { codeExecution: {} }],
    });
    expect(toGenaiRequest(request, 'gemini-2.5-flash', { vertexai: true }).config!.labels).toEqual({ team: 'a' });
  });

  it('keeps Gemini thought signatures, drops foreign ones (not base64) and never sends partMetadata', () => {
    expect(isGeminiThoughtSignature('EjQKMgFyyNp8VRG2uDen0QENDjUJ+/==')).toBe(true);
    expect(isGeminiThoughtSignature('EjQKMgFyyNp8_-')).toBe(true);
    expect(isGeminiThoughtSignature('openai:{"type":"reasoning"}')).toBe(false);
    const request = createLlmRequest({
      contents: [
        createUserContent('hi'),
        createModelContent([
          { text: 'thinking', thought: true, thoughtSignature: 'openai:{"type":"reasoning","id":"rs_1"}' },
          { functionCall: { name: 'f', args: {} }, thoughtSignature: 'EjQK', partMetadata: { openaiResponsesItem: { type: 'function_call', id: 'fc_1' } } },
        ]),
        createUserContent([{ functionResponse: { name: 'f', response: { ok: true } } }]),
      ],
    });
    const { contents } = toGenaiRequest(request, 'm', { vertexai: false });
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ text: 'thinking', thought: true }, { functionCall: { name: 'f', args: {} }, thoughtSignature: 'EjQK' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: { ok: true } } }] },
    ]);
  });

  it('adds a user turn when there are no contents or the last turn is the model’s (as ADK does)', () => {
    expect(toGenaiRequest(createLlmRequest(), 'm', { vertexai: false }).contents).toEqual([
      { role: 'user', parts: [{ text: EMPTY_CONTENTS_TEXT }] },
    ]);
    const contents = toGenaiRequest(createLlmRequest({ contents: [createUserContent('a'), createModelContent('b')] }), 'm', {
      vertexai: false,
    }).contents as unknown[];
    expect(contents.at(-1)).toEqual({ role: 'user', parts: [{ text: CONTINUE_TEXT }] });
  });

  it('does not change the request it maps', () => {
    const request = createLlmRequest({ contents: [createModelContent([{ text: 'x', thoughtSignature: 'not base64!' }])], config: { labels: { a: 'b' } } });
    const before = JSON.stringify(request);
    toGenaiRequest(request, 'm', { vertexai: false });
    expect(JSON.stringify(request)).toBe(before);
  });
});
