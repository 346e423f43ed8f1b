// #30 point 1: images and files beside a tool's result (FunctionResponse.parts), through the real
// openai SDK against the replay server, checked against the documented request shapes:
// Responses API: `function_call_output.output` is a list of input_text / input_image / input_file;
// Chat Completions: a `tool` message carries text only, so the parts follow in one user message
// (`image_url` with a data URL, `file` with `file_data`) right after the tool messages.
import { createLlmRequest, createModelContent, createUserContent, type Content } from '@adkit/flow';
import { startReplayServer, type ReplayServer } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, openaiAt, sentBodies } from './helpers.js';

let server: ReplayServer;
afterEach(async () => {
  server.assertDone();
  await server.close();
});

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
const contents: Content[] = [
  createUserContent('Chart the sales.'),
  createModelContent([{ functionCall: { id: 'call_1', name: 'chart', args: {} } }]),
  createUserContent([
    {
      functionResponse: {
        id: 'call_1',
        name: 'chart',
        response: { title: 'Sales' },
        parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }, { inlineData: { mimeType: 'application/pdf', data: PDF, displayName: 'sales.pdf' } }],
      },
    },
  ]),
];

describe('#30: parts beside tool results, OpenAI', () => {
  it('Responses API: function_call_output.output is the content list (input_text, input_image, input_file)', async () => {
    server = await startReplayServer();
    server.enqueue({ endpoint: '/responses', json: { id: 'r', object: 'response', status: 'completed', model: 'gpt-4.1', output: [{ type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Here.', annotations: [] }] }] } });
    const [response] = await collect(openaiAt(server, 'gpt-4.1', { api: 'responses' }), createLlmRequest({ contents }), false);
    expect(response!.content!.parts).toEqual([expect.objectContaining({ text: 'Here.' })]);
    const input = sentBodies(server)[0]!.input as Record<string, unknown>[];
    expect(input.at(-1)).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: [
        { type: 'input_text', text: '{"title":"Sales"}' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
        { type: 'input_file', file_data: `data:application/pdf;base64,${PDF}`, filename: 'sales.pdf' },
      ],
    });
  });

  it('Chat Completions: the tool message has the JSON; a user message right after it carries the image and the PDF', async () => {
    server = await startReplayServer();
    server.enqueue({ endpoint: '/chat/completions', json: { choices: [{ index: 0, message: { role: 'assistant', content: 'Here.' }, finish_reason: 'stop' }] } });
    await collect(openaiAt(server, 'gpt-4o'), createLlmRequest({ contents }), false);
    const messages = sentBodies(server)[0]!.messages as Record<string, unknown>[];
    expect(messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: '{"title":"Sales"}' },
      {
        role: 'user',
        content: [
          { type: 'text', text: '[Returned by chart (call call_1) beside its result:]' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'sales.pdf' } },
        ],
      },
    ]);
  });

  it('a result without parts is sent exactly as before (a string output, no extra message)', async () => {
    server = await startReplayServer();
    server.enqueue({ endpoint: '/chat/completions', json: { choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] } });
    const plain = contents.map((c, i) => (i === 2 ? createUserContent([{ functionResponse: { id: 'call_1', name: 'chart', response: { title: 'Sales' } } }]) : c));
    await collect(openaiAt(server, 'gpt-4o'), createLlmRequest({ contents: plain }), false);
    const messages = sentBodies(server)[0]!.messages as Record<string, unknown>[];
    expect(messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"title":"Sales"}' });
  });

  it('a part OpenAI cannot take (inline audio; a PDF by URL in Chat) goes as a text label, so the request still goes out', async () => {
    server = await startReplayServer();
    server.enqueue({ endpoint: '/chat/completions', json: { choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] } });
    server.enqueue({ endpoint: '/responses', json: { id: 'r', object: 'response', status: 'completed', model: 'gpt-4.1', output: [{ type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }] } });
    const odd = [
      { inlineData: { mimeType: 'audio/wav', data: 'AAAA' } },
      { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/r.pdf' } },
    ];
    const withOdd = contents.map((c, i) => (i === 2 ? createUserContent([{ functionResponse: { id: 'call_1', name: 'chart', response: {}, parts: odd } }]) : c));
    const [chat] = await collect(openaiAt(server, 'gpt-4o'), createLlmRequest({ contents: withOdd }), false);
    expect(chat!.errorCode).toBeUndefined();
    expect((sentBodies(server)[0]!.messages as Record<string, unknown>[]).at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: '[Returned by chart (call call_1) beside its result:]' },
        { type: 'text', text: '[inline data: audio/wav]' },
        { type: 'text', text: '[file: https://example.com/r.pdf (application/pdf)]' },
      ],
    });
    await collect(openaiAt(server, 'gpt-4.1', { api: 'responses' }), createLlmRequest({ contents: withOdd }), false);
    expect((sentBodies(server)[1]!.input as Record<string, unknown>[]).at(-1)).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: [
        { type: 'input_text', text: '{}' },
        { type: 'input_text', text: '[inline data: audio/wav]' },
        { type: 'input_file', file_url: 'https://example.com/r.pdf' },
      ],
    });
  });
});
