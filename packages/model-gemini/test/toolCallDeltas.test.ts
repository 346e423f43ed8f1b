// #30 point 2: tool-call arguments as they stream. Vertex AI streams a call's arguments
// (`streamFunctionCallArguments`: partialArgs with JSON paths, willContinue); the adapter yields the
// call as it grows as a partial response `{partial: true, toolCallDelta: {index, name,
// argsTextSoFar}}` (the arguments so far as JSON), through the real @google/genai SDK against the
// replay server, then the complete call as before. A delta is never a call: a stream cut
// mid-arguments yields the deltas it had and INCOMPLETE_STREAM, no function call.
import { createLlmRequest, type LlmResponse } from '@adkit/flow';
import { fixtureRequestBody, startReplayServer, truncatedFixture, type ReplayServer } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { collectAll, geminiAt } from './helpers.js';

let server: ReplayServer;
afterEach(async () => {
  server.assertDone();
  await server.close();
});

const FIXTURE = 'gemini-vertex--partial-function-call-args-stream.sse';
const recorded = fixtureRequestBody(FIXTURE) as { contents: never; tools: never; toolConfig: never };
const request = createLlmRequest({ contents: recorded.contents, config: { tools: recorded.tools, toolConfig: recorded.toolConfig } });
const vertex = (s: ReplayServer) => geminiAt(s, 'gemini-3-pro-preview', { vertexai: true, apiKey: 'AQ-replay-test' });
const deltasOf = (responses: LlmResponse[]) => responses.filter((r) => r.toolCallDelta).map((r) => r.toolCallDelta!);

describe('#30: Gemini tool-call deltas', () => {
  it('Vertex partialArgs: each chunk yields the call so far (name, arguments as JSON), partial and without content; then the complete call', async () => {
    server = await startReplayServer({ script: [FIXTURE] });
    const responses = await collectAll(vertex(server), request, true);
    const deltas = deltasOf(responses);
    expect(deltas.map((d) => d.argsTextSoFar)).toEqual([
      '{}',
      '{"country":"USA"}',
      '{"country":"USA","location":"NewYorkCity"}',
      '{"country":"USA","location":"NewYorkCity","purpose":"to know what to wear today"}',
      '{"country":"USA","location":"NewYorkCity","purpose":"to know what to wear today","unit":"C"}',
    ]);
    expect(responses.slice(0, -1).every((r) => r.partial === true && r.toolCallDelta && r.content === undefined)).toBe(true);
    expect(deltas.every((d) => d.index === 0 && d.name === 'getCurrentWeather' && d.functionCallId === undefined)).toBe(true);
    const final = responses.at(-1)!.content!.parts![0]!.functionCall!;
    expect(final.args).toEqual({ country: 'USA', location: 'NewYorkCity', purpose: 'to know what to wear today', unit: 'C' });
    expect(JSON.parse(deltas.at(-1)!.argsTextSoFar)).toEqual(final.args);
  });

  it('a stream cut mid-arguments yields the deltas it had, then INCOMPLETE_STREAM; no response carries a call', async () => {
    server = await startReplayServer({ script: [truncatedFixture(FIXTURE, 5)] });
    const responses = await collectAll(vertex(server), request, true);
    expect(deltasOf(responses).map((d) => d.argsTextSoFar)).toEqual(['{}', '{"country":"USA"}', '{"country":"USA","location":"NewYorkCity"}']);
    expect(responses.some((r) => r.content?.parts?.some((part) => part.functionCall))).toBe(false);
    expect(responses.at(-1)!.errorCode).toBe('INCOMPLETE_STREAM');
  });

  it('a call that arrives whole (the Gemini API) yields no delta', async () => {
    server = await startReplayServer({ script: ['gemini--function-call-stream.1.sse'] });
    const body = fixtureRequestBody('gemini--function-call-stream.1.sse') as { contents: never; tools?: never };
    const responses = await collectAll(geminiAt(server, 'gemini-2.5-flash'), createLlmRequest({ contents: body.contents, config: { tools: body.tools } }), true);
    expect(deltasOf(responses)).toEqual([]);
    expect(responses.at(-1)!.content!.parts!.some((part) => part.functionCall)).toBe(true);
  });
});
