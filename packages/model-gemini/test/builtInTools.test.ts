import { createLlmRequest, createUserContent, type JsonSchema, type Part } from '@adkit/flow';
import { fixtureJson, fixtureRequestBody, fixtureText, splitSseEvents, startReplayServer, type ReplayServer } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, geminiAt, sentBodies } from './helpers.js';
import { geminiSchema } from '../src/index.js';

let server: ReplayServer;
afterEach(async () => {
  server.assertDone();
  await server.close();
});

const chatbot = { role: 'user', parts: [{ text: 'You are a helpful chatbot.' }] };
type Recorded = { candidates: Array<{ content: { parts: Part[] }; groundingMetadata?: Record<string, unknown> }> };

describe('grounding metadata', () => {
  it('generateContent: the grounding metadata is on the response', async () => {
    server = await startReplayServer({ script: ['gemini--google-search-grounding.json'] });
    const request = createLlmRequest({
      contents: [createUserContent('What is the weather in San Francisco today?')],
      config: { systemInstruction: chatbot, tools: [{ googleSearch: {} }] },
    });
    const [response] = await collect(geminiAt(server, 'gemini-2.5-pro'), request, false);
    const recorded = (fixtureJson('gemini--google-search-grounding.json') as Recorded).candidates[0]!;
    expect(response!.groundingMetadata).toEqual(recorded.groundingMetadata);
    expect(Object.keys(response!.groundingMetadata!).sort()).toEqual(
      ['groundingChunks', 'groundingSupports', 'searchEntryPoint', 'webSearchQueries'].sort(),
    );
    expect(response!.content).toEqual({ role: 'model', parts: recorded.content.parts });
    expect(sentBodies(server)).toEqual([fixtureRequestBody('gemini--google-search-grounding.json')]);
  });

  it('streamGenerateContent: empty metadata on early chunks is ignored, the full one lands on the aggregate', async () => {
    server = await startReplayServer({ script: ['gemini--google-search-grounding-stream.sse'] });
    const request = createLlmRequest({
      contents: [createUserContent('What is the weather in San Francisco today?')],
      config: { systemInstruction: chatbot, tools: [{ googleSearch: {} }] },
    });
    const responses = await collect(geminiAt(server, 'gemini-2.5-pro'), request, true);
    const partials = responses.filter((r) => r.partial);
    expect(partials).toHaveLength(10);
    expect(partials.every((r) => r.groundingMetadata === undefined)).toBe(true);
    const final = responses.at(-1)!;
    expect(final.partial).toBeUndefined();
    const grounding = final.groundingMetadata as { groundingChunks: unknown[]; webSearchQueries: string[] };
    expect(grounding.groundingChunks.length).toBeGreaterThan(0);
    expect(grounding.webSearchQueries.length).toBeGreaterThan(0);
    expect(final.content!.parts).toHaveLength(1);
    expect(final.content!.parts![0]!.text).toBe(partials.map((r) => r.content!.parts![0]!.text).join(''));
    expect(final.content!.parts![0]!.text).toMatch(/^### Weather in San Francisco is Mild and Partly Cloudy Today/);
  });
});

describe('code execution', () => {
  it('generateContent: executable code, its result and the answer, in order', async () => {
    server = await startReplayServer({ script: ['gemini--code-execution.json'] });
    const request = createLlmRequest({
      contents: [createUserContent('What day is today in Utrecht?')],
      config: { systemInstruction: chatbot, tools: [{ codeExecution: {} }] },
    });
    const [response] = await collect(geminiAt(server, 'gemini-2.5-pro'), request, false);
    const parts = response!.content!.parts!;
    expect(parts.map((p) => Object.keys(p)[0])).toEqual(['executableCode', 'codeExecutionResult', 'text']);
    expect(parts[0]!.executableCode!.language).toBe('PYTHON');
    expect(parts[1]!.codeExecutionResult).toEqual({ outcome: 'OUTCOME_OK', output: 'Today in Utrecht is Tuesday, September 16, 2025.\n' });
    expect(parts[2]!.text).toBe('Today in Utrecht is Tuesday, September 16, 2025.');
    expect(sentBodies(server)).toEqual([fixtureRequestBody('gemini--code-execution.json')]);
  });

  it('generateContent: one code part with two results (OK and FAILED) and thought signatures', async () => {
    server = await startReplayServer({ script: ['gemini--code-execution-multiple-results.json'] });
    const request = createLlmRequest({ contents: [createUserContent('Run it')], config: { tools: [{ codeExecution: {} }] } });
    const [response] = await collect(geminiAt(server, 'gemini-3-flash-preview'), request, false);
    const recorded = (fixtureJson('gemini--code-execution-multiple-results.json') as Recorded).candidates[0]!;
    expect(response!.content).toEqual({ role: 'model', parts: recorded.content.parts });
    expect(response!.content!.parts!.map((p) => p.codeExecutionResult?.outcome)).toEqual([
      undefined,
      'OUTCOME_OK',
      'OUTCOME_FAILED',
      undefined,
    ]);
    expect(response!.content!.parts![0]!.thoughtSignature).toBe('EjQKMgFyyNp8VRG2uDen0QENDjUJEy6ZQlvEGUhI8VcgTgNaspEC3M5Cao6lhYRGpmCcClR1');
  });

  it('streamGenerateContent: code parts (some marked thought) stay whole; only the text streams', async () => {
    server = await startReplayServer({ script: ['gemini--code-execution-stream.sse'] });
    const request = createLlmRequest({
      contents: [createUserContent('what is 65465-6544 * 65464-6+1.02255')],
      config: {
        systemInstruction: { role: 'user', parts: [{ text: 'Be concise and always use Python to do calculations no matter how small.' }] },
        tools: [{ codeExecution: {} }],
      },
    });
    const responses = await collect(geminiAt(server, 'gemini-2.5-pro'), request, true);
    expect(responses.filter((r) => r.partial).map((r) => r.content!.parts![0]!.text)).toEqual([
      'The result is',
      ' -428,330,955.977',
      '45.',
    ]);
    const final = responses.at(-1)!;
    expect(final.content!.parts!.map((p) => [Object.keys(p).find((k) => k !== 'thought'), p.thought ?? false])).toEqual([
      ['executableCode', true],
      ['codeExecutionResult', true],
      ['executableCode', false],
      ['codeExecutionResult', false],
      ['text', false],
    ]);
    expect(final.content!.parts![4]!.text).toBe('The result is -428,330,955.97745.');
    expect(final.finishReason).toBe('STOP');
    expect(final.usageMetadata?.totalTokenCount).toBe(1475);
    expect(sentBodies(server)).toEqual([fixtureRequestBody('gemini--code-execution-stream.sse')]);
  });
});

describe('server-side MCP tools', () => {
  it('a call Gemini ran itself moves out of the content, with its response, into customMetadata.serverToolCalls', async () => {
    server = await startReplayServer({ script: ['gemini--server-side-mcp-tool-stream.sse'] });
    const recordedTools = (fixtureRequestBody('gemini--server-side-mcp-tool-stream.sse') as { tools: unknown[] }).tools;
    const request = createLlmRequest({
      contents: [createUserContent('What is the weather in San Francisco on 02/02/2026?')],
      config: { tools: recordedTools as never },
    });
    const responses = await collect(geminiAt(server, 'gemini-2.5-flash'), request, true);
    const final = responses.at(-1)!;
    const parts = final.content!.parts!;
    expect(parts).toHaveLength(1);
    expect(parts[0]!.text).toBe(responses.filter((r) => r.partial).map((r) => r.content!.parts![0]!.text).join(''));
    expect(parts[0]!.text).toMatch(/^Here's the hourly weather forecast for San Francisco on February/);
    const calls = (final.customMetadata as { serverToolCalls: Array<{ functionCall: unknown; functionResponse: { name: string; response: Record<string, unknown> } }> })
      .serverToolCalls;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.functionCall).toEqual({
      name: 'weather_server_get_weather',
      args: { endDate: '2026-02-02', location: 'San Francisco', startDate: '2026-02-02' },
    });
    expect(calls[0]!.functionResponse.name).toBe('weather_server_get_weather');
    expect(Object.keys(calls[0]!.functionResponse.response).sort()).toEqual(['call_tool_result_json', 'result']);
    // The call never shows up in a partial response either, so nothing invites running it.
    expect(responses.filter((r) => r.partial).every((r) => r.content!.parts!.every((p) => p.text !== undefined))).toBe(true);
    expect(sentBodies(server)).toEqual([fixtureRequestBody('gemini--server-side-mcp-tool-stream.sse')]);
  });
});

describe('Vertex AI partial function-call arguments', () => {
  it('assembles partialArgs / willContinue chunks into one call with complete args', async () => {
    server = await startReplayServer({ script: ['gemini-vertex--partial-function-call-args-stream.sse'] });
    const recorded = fixtureRequestBody('gemini-vertex--partial-function-call-args-stream.sse') as {
      contents: never;
      tools: never;
      toolConfig: never;
    };
    const model = geminiAt(server, 'gemini-3-pro-preview', { vertexai: true, apiKey: 'AQ-replay-test' });
    const request = createLlmRequest({ contents: recorded.contents, config: { tools: recorded.tools, toolConfig: recorded.toolConfig, labels: { team: 'a' } } });
    const responses = await collect(model, request, true);
    expect(responses).toHaveLength(1);
    const parts = responses[0]!.content!.parts!;
    expect(parts).toHaveLength(1);
    expect(parts[0]!.functionCall).toEqual({
      name: 'getCurrentWeather',
      args: { country: 'USA', location: 'NewYorkCity', purpose: 'to know what to wear today', unit: 'C' },
    });
    const firstChunk = JSON.parse(splitSseEvents(fixtureText('gemini-vertex--partial-function-call-args-stream.sse'))[0]!.slice(6)) as Recorded;
    expect(parts[0]!.thoughtSignature).toBe(firstChunk.candidates[0]!.content.parts[0]!.thoughtSignature);
    expect(responses[0]!.finishReason).toBe('STOP');
    expect(server.requests[0]!.path).toBe('/v1beta1/publishers/google/models/gemini-3-pro-preview:streamGenerateContent');
    // Vertex AI takes labels; the tool schemas went through geminiSchema (#26: the description
    // beside an anyOf moved into its branches); everything else is what js-genai recorded.
    const tools = (recorded.tools as { functionDeclarations: { parametersJsonSchema: JsonSchema }[] }[]).map((tool) => ({
      functionDeclarations: tool.functionDeclarations.map((d) => ({ ...d, parametersJsonSchema: geminiSchema(d.parametersJsonSchema).schema })),
    }));
    expect(sentBodies(server)[0]).toEqual({ ...fixtureRequestBody('gemini-vertex--partial-function-call-args-stream.sse'), tools, labels: { team: 'a' } });
  });
});
