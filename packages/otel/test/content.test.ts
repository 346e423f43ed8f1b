// Content capture: prompts, model output, tool arguments and results are recorded only when asked,
// and then cut to maxContentLength. Bad input tried: a 50 MB argument, a 90-deep result,
// `__proto__` keys, nesting past the recorder's depth limit, and secrets in the per-run context (`ctx.context`), which must never be
// recorded, whatever the settings.
import { LlmAgent } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import type { OtelPluginOptions } from '../src/index.js';
import { recordedText, tracedRunner } from './support/tracing.js';

declare module '@adkit/flow' {
  interface RunContext {
    apiKey?: string;
  }
}

const CONTENT_ATTRIBUTES = [
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.system_instructions',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
];
const SECRET = 'sk-live-do-not-record-0123456789';

/** A run where the prompt, the instruction, the arguments and the result each carry a marker. */
async function tracedRun(options: Omit<OtelPluginOptions, 'tracer'>) {
  const lookup = functionTool({
    name: 'lookup_order',
    description: 'Finds an order.',
    parameters: Type.Object({ order: Type.String() }),
    execute: ({ order }, ctx) => ({ order, status: 'shipped', keyLength: (ctx.context.apiKey ?? '').length }),
  });
  const model = new ScriptedModel([
    functionCallResponse([{ name: 'lookup_order', args: { order: 'ARG-MARKER-42' }, id: 'c1' }]),
    textResponse('OUTPUT-MARKER: your order shipped.'),
  ]);
  const agent = new LlmAgent({ name: 'support', model, tools: [lookup], instruction: 'INSTRUCTION-MARKER: be brief.' });
  const { tracing, run } = tracedRunner(agent, options);
  const events = await run('PROMPT-MARKER: where is my order?', { context: { apiKey: SECRET } });
  return { tracing, events };
}

describe('content capture', () => {
  it('records no prompt, output, argument or result by default', async () => {
    const { tracing } = await tracedRun({});
    expect(tracing.spans()).toHaveLength(4);
    for (const span of tracing.spans()) {
      for (const name of CONTENT_ATTRIBUTES) expect(span.attributes, `${span.name} ${name}`).not.toHaveProperty(name);
      expect(recordedText(span)).not.toMatch(/MARKER|shipped/);
    }
  });

  it('records them with captureContent, in the GenAI message shapes', async () => {
    const { tracing } = await tracedRun({ captureContent: true });
    const [first, second] = tracing.spans().filter((span) => span.name === 'chat scripted-model');
    expect(JSON.parse(String(first!.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'PROMPT-MARKER: where is my order?' }] },
    ]);
    expect(JSON.parse(String(first!.attributes['gen_ai.system_instructions']))).toEqual([
      { type: 'text', content: expect.stringContaining('INSTRUCTION-MARKER: be brief.') },
    ]);
    expect(JSON.parse(String(first!.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'lookup_order', arguments: { order: 'ARG-MARKER-42' } }] },
    ]);
    expect(JSON.parse(String(second!.attributes['gen_ai.input.messages'])).at(-1)).toEqual({
      role: 'tool',
      parts: [{ type: 'tool_call_response', id: 'c1', response: { order: 'ARG-MARKER-42', status: 'shipped', keyLength: SECRET.length } }],
    });
    expect(JSON.parse(String(second!.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'OUTPUT-MARKER: your order shipped.' }] },
    ]);
    const tool = tracing.span('execute_tool lookup_order');
    expect(tool.attributes['gen_ai.tool.call.arguments']).toBe('{"order":"ARG-MARKER-42"}');
    expect(tool.attributes['gen_ai.tool.call.result']).toBe(`{"order":"ARG-MARKER-42","status":"shipped","keyLength":${SECRET.length}}`);
    expect(tracing.span('invoke_agent support').attributes['gen_ai.input.messages']).toBe(
      '[{"role":"user","parts":[{"type":"text","content":"PROMPT-MARKER: where is my order?"}]}]',
    );
  });

  it('never records the per-run context, even with captureContent', async () => {
    const { tracing } = await tracedRun({ captureContent: true });
    for (const span of tracing.spans()) expect(recordedText(span)).not.toContain(SECRET);
  });

  it('cuts each recorded text to maxContentLength, marking the cut', async () => {
    const { tracing } = await tracedRun({ captureContent: true, maxContentLength: 40 });
    const tool = tracing.span('execute_tool lookup_order');
    expect(tool.attributes['gen_ai.tool.call.arguments']).toBe('{"order":"ARG-MARKER-42"}'); // 25 characters: fits
    expect(tool.attributes['gen_ai.tool.call.result']).toBe('{"order":"ARG-MARKER-42","st…[truncated]');
    for (const span of tracing.spans())
      for (const name of CONTENT_ATTRIBUTES) {
        const value = span.attributes[name];
        if (value !== undefined) expect(String(value).length, `${span.name} ${name}`).toBeLessThanOrEqual(40);
      }
  });

  it('a 50 MB argument is cut everywhere it would be recorded', async () => {
    const huge = 'x'.repeat(50 * 1024 * 1024);
    const store = functionTool({
      name: 'store_blob',
      description: 'Stores a blob.',
      parameters: Type.Object({ blob: Type.String() }),
      execute: ({ blob }) => ({ stored: blob.length }),
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'store_blob', args: { blob: huge } }]), textResponse('stored')]);
    const { tracing, run } = tracedRunner(new LlmAgent({ name: 'a', model, tools: [store] }), { captureContent: true, maxContentLength: 1000 });
    await run('store it');

    const args = String(tracing.span('execute_tool store_blob').attributes['gen_ai.tool.call.arguments']);
    expect(args).toBe(`{"blob":"${'x'.repeat(1000 - 9 - 12)}…[truncated]`);
    expect(tracing.span('execute_tool store_blob').attributes['gen_ai.tool.call.result']).toBe(`{"stored":${huge.length}}`);
    for (const span of tracing.spans()) expect(recordedText(span).length, span.name).toBeLessThan(5000);
  });

  it('records `__proto__` keys as plain keys, and cuts nesting at 64 levels', async () => {
    // The flow refuses results nested deeper than 100 levels; 90 gets through to the plugin.
    let deep: Record<string, unknown> = { bottom: true };
    for (let i = 0; i < 90; i++) deep = { d: deep };
    const weird = JSON.parse('{"__proto__":{"polluted":true},"ok":1}') as Record<string, unknown>;
    const tool = {
      name: 'weird',
      description: 'Returns odd shapes.',
      declaration: () => ({ name: 'weird', description: 'Returns odd shapes.' }),
      run: async () => ({ weird, deep }),
    };
    const model = new ScriptedModel([functionCallResponse([{ name: 'weird', args: weird }]), textResponse('ok')]);
    const { tracing, run } = tracedRunner(new LlmAgent({ name: 'a', model, tools: [tool] }), { captureContent: true, maxContentLength: 2000 });
    await run();

    const span = tracing.span('execute_tool weird');
    expect(span.attributes['gen_ai.tool.call.arguments']).toBe('{"__proto__":{"polluted":true},"ok":1}');
    const result = String(span.attributes['gen_ai.tool.call.result']);
    expect(result).toBe(`{"weird":{"__proto__":{"polluted":true},"ok":1},"deep":${'{"d":'.repeat(63)}"[…]"${'}'.repeat(64)}`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
