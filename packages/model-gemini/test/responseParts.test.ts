// #30 point 1: images and files beside a tool's result reach Gemini in `FunctionResponse.parts`
// (the documented multimodal function response: `{functionResponse: {name, response, parts:
// [{inlineData: {mimeType, data}}, {fileData: {mimeType, fileUri}}]}}`), through the real
// @google/genai SDK against the replay server.
import { createLlmRequest, createModelContent, createUserContent } from '@adkit/flow';
import { startReplayServer, type ReplayServer } from '@adkit/replay-server';
import { afterEach, expect, it } from 'vitest';
import { collect, geminiAt, sentBodies } from './helpers.js';

let server: ReplayServer;
afterEach(async () => {
  server.assertDone();
  await server.close();
});

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

it('#30: FunctionResponse.parts go to Gemini as the function response\'s parts (inline data and file references)', async () => {
  server = await startReplayServer();
  server.enqueue({ endpoint: ':generateContent', json: { candidates: [{ content: { role: 'model', parts: [{ text: 'A rising line.' }] }, finishReason: 'STOP' }] } });
  const parts = [
    { inlineData: { mimeType: 'image/png', data: PNG, displayName: 'chart.png' } },
    { fileData: { mimeType: 'application/pdf', fileUri: 'gs://bucket/sales.pdf', displayName: 'sales.pdf' } },
  ];
  const contents = [
    createUserContent('Chart the sales.'),
    createModelContent([{ functionCall: { name: 'chart', args: {} } }]),
    createUserContent([{ functionResponse: { name: 'chart', response: { image: { $ref: 'chart.png' } }, parts } }]),
  ];
  const [response] = await collect(geminiAt(server, 'gemini-3-pro-preview'), createLlmRequest({ contents }), false);
  expect(response!.content!.parts).toEqual([{ text: 'A rising line.' }]);
  const sent = sentBodies(server)[0]!.contents as { parts: Record<string, unknown>[] }[];
  expect(sent.at(-1)!.parts).toEqual([{ functionResponse: { name: 'chart', response: { image: { $ref: 'chart.png' } }, parts } }]);
});
