// ScriptedModel is a real Model: it answers from its script, records each request, and fails
// clearly past the end.
import { describe, expect, it } from 'vitest';
import { createLlmRequest, isAdkitError, isModel, type LlmResponse } from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';

async function all(gen: AsyncIterable<LlmResponse>) {
  const out: LlmResponse[] = [];
  for await (const r of gen) out.push(r);
  return out;
}

describe('ScriptedModel', () => {
  it('answers step by step and records a copy of each request', async () => {
    const model = new ScriptedModel([textResponse('one'), (req) => textResponse(`saw ${req.contents.length} contents`)]);
    expect(isModel(model)).toBe(true);
    const request = createLlmRequest({ model: 'x', contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(await all(model.generateContent(request, { stream: false }))).toEqual([textResponse('one')]);
    request.contents.push({ role: 'user', parts: [{ text: 'later' }] });
    expect(model.requests[0]!.contents).toHaveLength(1);
    expect(await all(model.generateContent(request, { stream: false }))).toEqual([textResponse('saw 2 contents')]);
    expect(model.requests).toHaveLength(2);
    expect(model.remaining).toBe(0);
  });

  it('an array step streams partial chunks, then their aggregate', async () => {
    const model = new ScriptedModel([
      [
        { content: { role: 'model', parts: [{ text: 'Let me ', thought: true }] } },
        { content: { role: 'model', parts: [{ text: 'think', thought: true }] } },
        textResponse('Hello '),
        { ...textResponse('world'), usageMetadata: { totalTokenCount: 9 } },
        functionCallResponse([{ name: 'f', args: { a: 1 } }]),
      ],
    ]);
    const out = await all(model.generateContent(createLlmRequest(), { stream: true }));
    expect(out.slice(0, 5).every((r) => r.partial === true)).toBe(true);
    expect(out[5]).toEqual({
      content: {
        role: 'model',
        parts: [{ text: 'Let me think', thought: true }, { text: 'Hello world' }, { functionCall: { name: 'f', args: { a: 1 } } }],
      },
    });
  });

  it('running past the last step throws a clear error', async () => {
    const model = new ScriptedModel([textResponse('only')], { model: 'm1' });
    await all(model.generateContent(createLlmRequest(), { stream: false }));
    const error = await all(model.generateContent(createLlmRequest(), { stream: false })).catch((e: unknown) => e);
    expect(isAdkitError(error)).toBe(true);
    expect((error as Error).message).toBe(
      'ScriptedModel "m1" got request #2 but its script has only 1 step(s). Add a step, or check why the agent called the model again.',
    );
  });

  it('functionCallResponse keeps ids only when given', () => {
    expect(functionCallResponse([{ name: 'a' }, { name: 'b', id: 'x', args: { k: 1 } }]).content!.parts).toEqual([
      { functionCall: { name: 'a', args: {} } },
      { functionCall: { name: 'b', args: { k: 1 }, id: 'x' } },
    ]);
  });
});
