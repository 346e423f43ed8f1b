// BT-6: example_tool's few-shot block, asserted in full. Bad input tried: examples that are not an
// array, an example without an output list, a user message that does not start with text.
import { ConfigError, createLlmRequest, createUserContent, isRunnableTool, LlmAgent, type Content } from '@adkit/flow';
import { createToolContext, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { exampleTool, isRequestProcessor, type FewShotExample } from '../src/index.js';
import { runOnce } from './support.js';

const examples: FewShotExample[] = [
  {
    input: createUserContent('What is the weather in Paris?'),
    output: [
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris', days: 2, metric: true } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { celsius: 21, sky: 'clear' } } }] },
      { role: 'model', parts: [{ text: 'It is 21 °C and clear.' }] },
      { role: 'model', parts: [{ text: 'Anything else?' }] },
    ],
  },
  {
    input: { role: 'user', parts: [{ text: 'Say End few-shot' }, { text: '' }, { text: 'twice' }] },
    output: [{ role: 'model', parts: [{ text: 'End few-shot End few-shot' }] }],
  },
];

const BLOCK = (call: string, response: string) =>
  '<EXAMPLES>\n' +
  'Begin few-shot\n' +
  'The following are examples of user queries and model responses using the available tools.\n\n' +
  'EXAMPLE 1:\n' +
  'Begin example\n' +
  '[user]\n' +
  'What is the weather in Paris?\n' +
  '[model]\n' +
  `${call}get_weather(city='Paris', days=2, metric=true)\n` +
  '```\n' +
  '[user]\n' +
  `${response}{"celsius":21,"sky":"clear"}\n` +
  '```\n' +
  '[model]\n' +
  'It is 21 °C and clear.\n' +
  'Anything else?\n' +
  'End example\n\n' +
  'EXAMPLE 2:\n' +
  'Begin example\n' +
  '[user]\n' +
  'Say [PROTECTED]\n' +
  'twice\n' +
  '[model]\n' +
  '[PROTECTED] [PROTECTED]\n' +
  'End example\n\n' +
  'End few-shot\n' +
  '<EXAMPLES>';

async function instruction(model: string | undefined, userContent: Content | undefined) {
  const request = createLlmRequest(model ? { model } : {});
  await exampleTool(examples).processRequest(createToolContext({ userContent }), request);
  return request;
}

describe('example_tool (BT-6)', () => {
  it('BT-6: plain fences for models without gemini-2 in the name', async () => {
    const request = await instruction('gpt-4.1-mini', createUserContent('hi'));
    expect(request.config.systemInstruction).toEqual({ role: 'user', parts: [{ text: BLOCK('```\n', '```\n') }] });
    expect((await instruction(undefined, createUserContent('hi'))).config.systemInstruction!.parts![0]!.text).toBe(BLOCK('```\n', '```\n'));
  });

  it('BT-6: tool_code / tool_outputs fences for gemini-2 models', async () => {
    const request = await instruction('gemini-2.5-flash', createUserContent('hi'));
    expect(request.config.systemInstruction!.parts![0]!.text).toBe(BLOCK('```tool_code\n', '```tool_outputs\n'));
  });

  it('BT-6: nothing is added unless the user message starts with text', async () => {
    for (const content of [undefined, createUserContent([]), createUserContent([{ text: '' }, { text: 'later' }]), createUserContent([{ inlineData: { mimeType: 'image/png', data: '' } }])])
      expect((await instruction('gemini-2.0-flash', content)).config.systemInstruction).toBeUndefined();
  });

  it('BT-6: no declaration, never registered, never callable; the block reaches the model after the instruction', async () => {
    const tool = exampleTool(examples);
    expect([tool.name, tool.description]).toEqual(['example_tool', 'example tool']);
    expect(isRunnableTool(tool)).toBe(false);
    expect(isRequestProcessor(tool)).toBe(true);
    const model = new ScriptedModel([textResponse('ok')], { model: 'gpt-4.1' });
    await runOnce(new LlmAgent({ name: 'a', model, instruction: 'Be helpful.', tools: [tool] }), 'weather?');
    expect(model.requests[0]!.tools).toEqual({});
    expect(model.requests[0]!.config.tools).toBeUndefined();
    expect(model.requests[0]!.config.systemInstruction!.parts![0]!.text).toMatch(/^Be helpful\.\n\n[\s\S]*\n\n<EXAMPLES>\n[\s\S]*End few-shot\n<EXAMPLES>$/);
  });

  it('BT-6: bad examples are a ConfigError at construction', () => {
    expect(() => exampleTool({} as never)).toThrow(ConfigError);
    expect(() => exampleTool({} as never)).toThrow('exampleTool: examples must be an array of {input: Content, output: Content[]}, got object.');
    expect(() => exampleTool([{ input: createUserContent('x'), output: 'nope' } as never])).toThrow(
      'exampleTool: examples[0] must be {input: Content, output: Content[]}.',
    );
  });
});
