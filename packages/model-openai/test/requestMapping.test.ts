import { createLlmRequest, createModelContent, createUserContent, type Content } from '@adkit/flow';
import { describe, expect, it } from 'vitest';
import { chatRequest, type RequestSettings } from '../src/chatRequest.js';
import { SchemaCache } from '../src/schemaCache.js';
import { PENDING_OUTPUT } from '../src/history.js';
import { RESPONSES_ITEM_KEY, type ResponsesItem } from '../src/responsesItem.js';

import { responsesRequest } from '../src/responsesRequest.js';
import { genaiSchemaToJsonSchema } from '../src/toJsonSchema.js';

const itemMeta = (item: ResponsesItem) => ({ [RESPONSES_ITEM_KEY]: item });

const settings: RequestSettings = { strict: false, systemRole: 'system', schemas: new SchemaCache() };
const chatBody = (contents: Content[], config = {}, s: RequestSettings = settings, stream = false) =>
  chatRequest(createLlmRequest({ contents, config }), 'gpt-4o', s, stream).body as unknown as Record<string, unknown>;
const responsesBody = (contents: Content[], config = {}, s: RequestSettings = settings) =>
  responsesRequest(createLlmRequest({ contents, config }), 'gpt-4o', s, false).body as unknown as Record<string, unknown>;

describe('history from another provider (calls without ids, FL-7)', () => {
  // A Gemini agent earlier in the session: two calls of one tool and one of another, no ids
  // (the flow cleared their `adk-` ids), responses in another order, one call still pending.
  const contents: Content[] = [
    createUserContent('weather in Paris and Rome, and book a table'),
    createModelContent([
      { text: 'Let me check.' },
      { functionCall: { name: 'weather', args: { city: 'Paris' } } },
      { functionCall: { name: 'weather', args: { city: 'Rome' } } },
      { functionCall: { name: 'book', args: { seats: 2 } } },
    ]),
    createUserContent([
      { functionResponse: { name: 'weather', response: { result: 'sunny' } } },
      { functionResponse: { name: 'weather', response: { result: 'rainy' } } },
    ]),
    createModelContent('Paris is sunny, Rome rainy; the booking is pending.'),
    createUserContent([{ functionResponse: { name: 'book', response: { status: 'confirmed' } } }, { text: 'Thanks!' }]),
  ];

  it('chat: synthesizes stable ids, pairs responses by name in order, answers the pending call, keeps a late answer as text', () => {
    // bad input tried: id-less calls and responses, a response arriving after its call was closed.
    const messages = chatBody(contents).messages;
    expect(messages).toEqual([
      { role: 'user', content: 'weather in Paris and Rome, and book a table' },
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [
          { id: 'call_1_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_1_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
          { id: 'call_1_3', type: 'function', function: { name: 'book', arguments: '{"seats":2}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1_1', content: 'sunny' },
      { role: 'tool', tool_call_id: 'call_1_2', content: 'rainy' },
      { role: 'tool', tool_call_id: 'call_1_3', content: PENDING_OUTPUT },
      { role: 'assistant', content: 'Paris is sunny, Rome rainy; the booking is pending.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Update from function book: {"status":"confirmed"}' },
          { type: 'text', text: 'Thanks!' },
        ],
      },
    ]);
    expect(PENDING_OUTPUT).toBe('{"status":"pending"}');
    // The same history maps to the same ids every time.
    expect(chatBody(contents).messages).toEqual(messages);
  });

  it('responses: the same pairing as function_call / function_call_output items', () => {
    const input = responsesBody(contents).input as Array<Record<string, unknown>>;
    expect(input.filter((item) => item.type === 'function_call').map((item) => item.call_id)).toEqual(['call_1_1', 'call_1_2', 'call_1_3']);
    expect(input.filter((item) => item.type === 'function_call_output')).toEqual([
      { type: 'function_call_output', call_id: 'call_1_1', output: 'sunny' },
      { type: 'function_call_output', call_id: 'call_1_2', output: 'rainy' },
      { type: 'function_call_output', call_id: 'call_1_3', output: PENDING_OUTPUT },
    ]);
    expect(input[1]).toEqual({ role: 'assistant', content: 'Let me check.' });
  });

  it('a late answer to a call already answered pending is an update in user text', () => {
    const messages = chatBody([
      createUserContent('book'),
      createModelContent([{ functionCall: { id: 't1', name: 'book', args: {} } }]),
      createUserContent('still there?'),
      createUserContent([{ functionResponse: { id: 't1', name: 'book', response: { status: 'done' } } }]),
    ]).messages as unknown[];
    expect(messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 't1', content: PENDING_OUTPUT },
      { role: 'user', content: 'still there?' },
      { role: 'user', content: 'Update from function book (call t1): {"status":"done"}' },
    ]);
  });

  it('bad input: a response to a call that is not in the history at all becomes user text', () => {
    const messages = chatBody([createUserContent([{ functionResponse: { id: 'q9', name: 'lookup', response: { hits: 0 } } }])]).messages;
    expect(messages).toEqual([{ role: 'user', content: 'Function lookup (call q9) returned: {"hits":0}' }]);
  });

  it('thoughts and other providers’ signatures are not sent; code execution parts are kept as text', () => {
    const messages = chatBody([
      createUserContent('compute'),
      createModelContent([
        { text: 'thinking…', thought: true, thoughtSignature: 'EjQK' },
        { executableCode: { language: 'PYTHON', code: 'print(1)' } },
        { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1\n' } },
        { text: 'It is 1.' },
      ]),
      createUserContent('ok'),
    ]).messages;
    expect(messages).toEqual([
      { role: 'user', content: 'compute' },
      { role: 'assistant', content: 'Code (python):\nprint(1)\nCode execution result (OUTCOME_OK):\n1\n\nIt is 1.' },
      { role: 'user', content: 'ok' },
    ]);
  });
});

describe('Responses items restored from signatures', () => {
  it('reasoning items go back whole; consecutive text parts of one message stay one message; unknown signatures are ignored', () => {
    const reasoning = { type: 'reasoning' as const, id: 'rs_1', encrypted_content: 'enc', summary: [{ type: 'summary_text' as const, text: 'Plan' }] };
    const message = { type: 'message' as const, id: 'msg_1', phase: 'final_answer' };
    const input = responsesBody([
      createUserContent('q'),
      createModelContent([
        { text: 'Plan', thought: true, partMetadata: itemMeta(reasoning) },
        { text: 'Gemini thought', thought: true, thoughtSignature: 'EjQK' },
        { text: 'A', partMetadata: itemMeta(message) },
        { text: 'B', partMetadata: itemMeta(message) },
        { text: 'C', partMetadata: { [RESPONSES_ITEM_KEY]: 'broken' } },
      ]),
    ]).input;
    expect(input).toEqual([
      { role: 'user', content: 'q' },
      { type: 'reasoning', id: 'rs_1', encrypted_content: 'enc', summary: [{ type: 'summary_text', text: 'Plan' }] },
      {
        type: 'message',
        role: 'assistant',
        id: 'msg_1',
        status: 'completed',
        phase: 'final_answer',
        content: [
          { type: 'output_text', text: 'A', annotations: [] },
          { type: 'output_text', text: 'B', annotations: [] },
        ],
      },
      { role: 'assistant', content: 'C' },
    ]);
  });
});

describe('settings', () => {
  const tools = [
    {
      functionDeclarations: [
        { name: 'a', description: 'first', parameters: { type: 'OBJECT', properties: { n: { type: 'INTEGER', nullable: true } } } },
        { name: 'b' },
        { name: 'c' },
      ],
    },
  ];

  it('chat: system role, generation settings, structured output, reasoning effort, tool choice narrowed by allowedFunctionNames', () => {
    const body = chatBody(
      [createUserContent('x')],
      {
        systemInstruction: { role: 'user', parts: [{ text: 'Be brief.' }, { text: 'Be kind.' }] },
        tools,
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a', 'c'] } },
        temperature: 0.5,
        topP: 0.9,
        maxOutputTokens: 64,
        stopSequences: ['END'],
        seed: 3,
        presencePenalty: 0.1,
        frequencyPenalty: 0.2,
        responseJsonSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        thinkingConfig: { thinkingLevel: 'HIGH' },
      },
      { ...settings, systemRole: 'developer', extraBody: { service_tier: 'flex' } },
      true,
    );
    expect(body).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'developer', content: 'Be brief.\n\nBe kind.' },
        { role: 'user', content: 'x' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'a', description: 'first', parameters: { type: 'object', properties: { n: { type: ['integer', 'null'] } } } },
        },
        { type: 'function', function: { name: 'b', parameters: { type: 'object', properties: {} } } },
        { type: 'function', function: { name: 'c', parameters: { type: 'object', properties: {} } } },
      ],
      tool_choice: {
        type: 'allowed_tools',
        allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'a' } }, { type: 'function', function: { name: 'c' } }] },
      },
      temperature: 0.5,
      top_p: 0.9,
      max_completion_tokens: 64,
      stop: ['END'],
      seed: 3,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      response_format: { type: 'json_schema', json_schema: { name: 'response', schema: { type: 'object', properties: { ok: { type: 'boolean' } } } } },
      reasoning_effort: 'high',
      stream: true,
      stream_options: { include_usage: true },
      service_tier: 'flex',
    });
  });

  it('tool choice: one allowed name → that function; NONE → none; no mode → left out', () => {
    expect(chatBody([createUserContent('x')], { tools, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['b'] } } }).tool_choice).toEqual({
      type: 'function',
      function: { name: 'b' },
    });
    expect(chatBody([createUserContent('x')], { tools, toolConfig: { functionCallingConfig: { mode: 'NONE' } } }).tool_choice).toBe('none');
    expect(chatBody([createUserContent('x')], { tools }).tool_choice).toBeUndefined();
    expect(responsesBody([createUserContent('x')], { tools, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a', 'b'] } } }).tool_choice).toEqual({
      type: 'allowed_tools',
      mode: 'required',
      tools: [
        { type: 'function', name: 'a' },
        { type: 'function', name: 'b' },
      ],
    });
  });

  it('responses: instructions, max_output_tokens, json output, reasoning from thinkingConfig with encrypted content, store', () => {
    const body = responsesBody(
      [createUserContent('x')],
      {
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        maxOutputTokens: 10,
        responseMimeType: 'application/json',
        thinkingConfig: { thinkingLevel: 'LOW', includeThoughts: true },
      },
      { ...settings, store: false },
    );
    expect(body).toEqual({
      model: 'gpt-4o',
      input: [{ role: 'user', content: 'x' }],
      instructions: 'Be brief.',
      max_output_tokens: 10,
      text: { format: { type: 'json_object' } },
      reasoning: { effort: 'low', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      store: false,
    });
  });

  it('user media: images inline and by URL, PDFs inline; empty history gets ADK’s user turn', () => {
    const parts = [
      { text: 'look' },
      { inlineData: { mimeType: 'image/png', data: 'iVBO' } },
      { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/a.jpg' } },
      { inlineData: { mimeType: 'application/pdf', data: 'JVBE', displayName: 'spec.pdf' } },
    ];
    expect(chatBody([createUserContent(parts)]).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO' } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'spec.pdf' } },
        ],
      },
    ]);
    expect(responsesBody([createUserContent(parts)]).input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'look' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBO', detail: 'auto' },
          { type: 'input_image', image_url: 'https://example.com/a.jpg', detail: 'auto' },
          { type: 'input_file', file_data: 'data:application/pdf;base64,JVBE', filename: 'spec.pdf' },
        ],
      },
    ]);
    expect(chatBody([]).messages).toEqual([{ role: 'user', content: 'Handle the requests as specified in the System Instruction.' }]);
  });

  it('bad input: a PDF by URL in Chat Completions is refused with the remedy', () => {
    expect(() => chatBody([createUserContent([{ fileData: { mimeType: 'application/pdf', fileUri: 'https://x/y.pdf' } }])])).toThrow(
      `OpenAI model "gpt-4o" cannot take a PDF by URL in the Chat Completions API; send it inline or use {api: 'responses'}.`,
    );
  });

  it('the request model wins over the adapter’s model name', () => {
    const body = chatRequest(createLlmRequest({ model: 'gpt-4.1', contents: [createUserContent('x')] }), 'gpt-4o', settings, false).body;
    expect(body.model).toBe('gpt-4.1');
  });
});

describe('genai schemas to JSON Schema', () => {
  it('lower-cases types, turns nullable into a null type, int64 strings into numbers, drops propertyOrdering', () => {
    expect(
      genaiSchemaToJsonSchema({
        type: 'OBJECT',
        properties: {
          name: { type: 'STRING', maxLength: '20', nullable: true },
          tags: { type: 'ARRAY', items: { type: 'STRING', enum: ['a', 'b'] }, minItems: '1' },
          choice: { anyOf: [{ type: 'INTEGER' }, { type: 'BOOLEAN' }], nullable: true },
          kind: { type: 'STRING', enum: ['x'], nullable: true },
        },
        required: ['tags'],
        propertyOrdering: ['name', 'tags'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        name: { type: ['string', 'null'], maxLength: 20 },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1 },
        choice: { anyOf: [{ type: 'integer' }, { type: 'boolean' }, { type: 'null' }] },
        kind: { type: ['string', 'null'], enum: ['x', null] },
      },
      required: ['tags'],
    });
  });
});
