// The span tree of real runs (InMemoryRunner, ScriptedModel, function tools) and its GenAI
// attributes. Bad input tried: two calls running at once (each must keep its own span), a tool
// that throws (also a value that String() and JSON.stringify() cannot print), a call to a tool
// that does not exist, a model that throws, a model answering with an error code, and a streaming tool, for which the flow runs no tool callbacks (FL-12).
import { LlmAgent, type Model, type Tool } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool, streamingFunctionTool } from '@adkit/function-tool';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { idOf, parentOf, tracedRunner } from './support/tracing.js';

/** Two tools that only finish once both have started: they must run at the same time. */
function overlappingTools(): Tool[] {
  let arrived = 0;
  let release!: () => void;
  const bothStarted = new Promise<void>((resolve) => (release = resolve));
  const tool = (name: string, result: string) =>
    functionTool({
      name,
      description: `Looks up the ${name.replace('get_', '')}.`,
      parameters: Type.Object({ city: Type.String() }),
      execute: async ({ city }) => {
        if (++arrived === 2) release();
        await bothStarted;
        return { [name]: `${result} in ${city}` };
      },
    });
  return [tool('get_weather', 'sunny'), tool('get_time', 'noon')];
}

describe('span tree', () => {
  it('FL-9, FL-14: a run with two parallel tool calls gives invoke_agent > chat, execute_tool ×2, chat', async () => {
    const model = new ScriptedModel(
      [
        functionCallResponse(
          [
            { name: 'get_weather', args: { city: 'Paris' }, id: 'call_w' },
            { name: 'get_time', args: { city: 'Paris' }, id: 'call_t' },
          ],
          { usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 5, thoughtsTokenCount: 2 }, finishReason: 'STOP', modelVersion: 'gpt-test-2026' },
        ),
        textResponse('Sunny, and it is noon.', { usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 8 } }),
      ],
      { model: 'gpt-test' },
    );
    const agent = new LlmAgent({
      name: 'assistant',
      description: 'Answers questions about cities.',
      model,
      tools: overlappingTools(),
      generateContentConfig: { temperature: 0.2, maxOutputTokens: 256 },
    });
    const { tracing, run } = tracedRunner(agent);
    await run();

    const spans = tracing.spans();
    expect(spans.map((span) => span.name).sort()).toEqual([
      'chat gpt-test',
      'chat gpt-test',
      'execute_tool get_time',
      'execute_tool get_weather',
      'invoke_agent assistant',
    ]);
    expect(tracing.started).toHaveLength(5);
    const root = tracing.span('invoke_agent assistant');
    expect(parentOf(root)).toBeUndefined();
    for (const span of spans) {
      expect(span.spanContext().traceId).toBe(root.spanContext().traceId);
      if (span !== root) expect(parentOf(span), span.name).toBe(idOf(root));
    }
    expect(root.kind).toBe(SpanKind.INTERNAL);
    expect(root.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'assistant',
      'gen_ai.agent.description': 'Answers questions about cities.',
      'gen_ai.conversation.id': 's1',
      'adkit.invocation.id': expect.stringMatching(/^e-/),
      'gen_ai.usage.input_tokens': 52,
      'gen_ai.usage.output_tokens': 15,
      'adkit.outcome': 'completed',
    });

    const [first, second] = spans.filter((span) => span.name === 'chat gpt-test').sort((a, b) => compareTime(a.startTime, b.startTime));
    expect(first!.kind).toBe(SpanKind.CLIENT);
    expect(first!.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.agent.name': 'assistant',
      'gen_ai.conversation.id': 's1',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.max_tokens': 256,
      'gen_ai.response.model': 'gpt-test-2026',
      'gen_ai.response.finish_reasons': ['STOP'],
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 7,
      'adkit.outcome': 'completed',
    });
    expect(second!.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 40, 'gen_ai.usage.output_tokens': 8 });

    const weather = tracing.span('execute_tool get_weather');
    const time = tracing.span('execute_tool get_time');
    expect(weather.kind).toBe(SpanKind.INTERNAL);
    expect(weather.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'call_w',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Looks up the weather.',
      'gen_ai.agent.name': 'assistant',
      'gen_ai.conversation.id': 's1',
      'adkit.outcome': 'completed',
    });
    expect(time.attributes).toMatchObject({ 'gen_ai.tool.name': 'get_time', 'gen_ai.tool.call.id': 'call_t' });
    // The calls overlapped, and each span kept its own call: both lie between the two model calls.
    expect(compareTime(weather.startTime, time.endTime)).toBeLessThan(0);
    expect(compareTime(time.startTime, weather.endTime)).toBeLessThan(0);
    for (const tool of [weather, time]) {
      expect(compareTime(first!.endTime, tool.startTime)).toBeLessThanOrEqual(0);
      expect(compareTime(tool.endTime, second!.startTime)).toBeLessThanOrEqual(0);
      expect(tool.status.code).toBe(SpanStatusCode.UNSET);
    }
  });

  it('FL-13: a tool that throws ends its span with an error status, error.type and the exception', async () => {
    const failing = functionTool({
      name: 'charge_card',
      description: 'Charges a card.',
      parameters: Type.Object({ amount: Type.Number() }),
      execute: () => {
        throw new RangeError('amount over the limit');
      },
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'charge_card', args: { amount: 1e9 } }]), textResponse('It failed.')]);
    const { tracing, run } = tracedRunner(new LlmAgent({ name: 'shop', model, tools: [failing] }));
    await run();

    const span = tracing.span('execute_tool charge_card');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'amount over the limit' });
    expect(span.attributes).toMatchObject({ 'error.type': 'RangeError', 'adkit.outcome': 'error' });
    expect(span.events.map((event) => [event.name, event.attributes?.['exception.type'], event.attributes?.['exception.message']])).toEqual([
      ['exception', 'RangeError', 'amount over the limit'],
    ]);
    // The run went on (the model saw the error and answered): the run itself did not fail.
    expect(tracing.span('invoke_agent shop').status.code).toBe(SpanStatusCode.UNSET);
  });

  it('FL-13: a tool that throws a value that cannot be printed (no prototype, a BigInt inside) still ends every span', async () => {
    // String() and JSON.stringify() both throw for this value; errorMessage() passes that on.
    const unprintable = Object.assign(Object.create(null) as object, { amount: 10n ** 30n });
    const failing = functionTool({
      name: 'charge_card',
      description: 'Charges a card.',
      parameters: Type.Object({}),
      execute: () => {
        throw unprintable;
      },
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'charge_card', args: {} }]), textResponse('It failed.')]);
    const { tracing, run } = tracedRunner(new LlmAgent({ name: 'shop', model, tools: [failing] }), { captureContent: true });
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    try {
      await run();
    } finally {
      console.warn = warn;
    }
    expect(warnings.filter((w) => w.includes('@adkit/otel'))).toEqual([]);
    const ended = new Set(tracing.spans().map((span) => span.spanContext().spanId));
    expect(tracing.started.filter((span) => !ended.has(span.spanContext().spanId)).map((span) => span.name)).toEqual([]);
    const span = tracing.span('execute_tool charge_card');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: '[object Object]' });
    expect(span.attributes).toMatchObject({ 'error.type': '_OTHER', 'adkit.outcome': 'error', 'gen_ai.tool.call.result': '{"error":"[object Object]"}' });
  });

  it('FL-13: an error an agent callback recovers from stays visible, without an error status', async () => {
    const flaky = functionTool({
      name: 'flaky',
      description: 'Fails.',
      parameters: Type.Object({}),
      execute: () => {
        throw new Error('upstream 503');
      },
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'flaky' }]), textResponse('ok')]);
    const agent = new LlmAgent({ name: 'a', model, tools: [flaky], onToolErrorCallback: () => ({ fallback: true }) });
    const { tracing, run } = tracedRunner(agent);
    await run();

    const span = tracing.span('execute_tool flaky');
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toMatchObject({ 'adkit.outcome': 'completed', 'adkit.tool.recovered': true });
    expect(span.events.map((event) => event.attributes?.['exception.message'])).toEqual(['upstream 503']);
  });

  it('FL-11: a call to an unknown tool gets an error span (only on-error callbacks run for it)', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'serch', args: { q: 'x' }, id: 'c1' }]), textResponse('sorry')]);
    const { tracing, run } = tracedRunner(new LlmAgent({ name: 'a', model, tools: [] }));
    await run();

    const span = tracing.span('execute_tool serch');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.status.message).toMatch(/^tool 'serch' not found/);
    expect(span.attributes).toMatchObject({ 'gen_ai.tool.call.id': 'c1', 'error.type': 'Error', 'adkit.outcome': 'error' });
    expect(tracing.spans()).toHaveLength(4);
  });

  it('FL-5: a model that throws ends its chat span in error, and the run span says the run failed', async () => {
    const broken: Model = {
      model: 'broken-model',
      // eslint-disable-next-line require-yield
      async *generateContent() {
        throw new TypeError('socket hang up');
      },
    };
    const { tracing, run } = tracedRunner(new LlmAgent({ name: 'a', model: broken }));
    const events = await run();
    expect(events.at(-1)?.errorCode).toBe('MODEL_ERROR');

    const chat = tracing.span('chat broken-model');
    expect(chat.status).toEqual({ code: SpanStatusCode.ERROR, message: 'socket hang up' });
    expect(chat.attributes).toMatchObject({ 'error.type': 'TypeError', 'adkit.outcome': 'error' });
    const root = tracing.span('invoke_agent a');
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.attributes).toMatchObject({ 'error.type': 'MODEL_ERROR', 'adkit.outcome': 'error' });
  });

  it('a model response with an error code ends its span in error with that code', async () => {
    const model = new ScriptedModel([{ errorCode: 'SAFETY', errorMessage: 'blocked by the safety filter' }]);
    const { tracing, run } = tracedRunner(new LlmAgent({ name: 'a', model }));
    await run();
    const chat = tracing.span('chat scripted-model');
    expect(chat.status).toEqual({ code: SpanStatusCode.ERROR, message: 'blocked by the safety filter' });
    expect(chat.attributes['error.type']).toBe('SAFETY');
  });

  it('FL-12: a streaming tool, which runs without tool callbacks, still gets its span from the events', async () => {
    const countdown = streamingFunctionTool({
      name: 'countdown',
      description: 'Counts down.',
      parameters: Type.Object({ from: Type.Integer() }),
      execute: async function* ({ from }) {
        for (let i = from; i > 0; i--) yield `${i} `;
      },
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'countdown', args: { from: 3 }, id: 'c1' }]), textResponse('done')]);
    const { tracing, run } = tracedRunner(new LlmAgent({ name: 'a', model, tools: [countdown] }), { captureContent: true });
    await run();
    const span = tracing.span('execute_tool countdown');
    expect(parentOf(span)).toBe(idOf(tracing.span('invoke_agent a')));
    expect(span.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'c1',
      'gen_ai.tool.call.arguments': '{"from":3}',
      'gen_ai.tool.call.result': '{"result":"3 2 1 "}',
      'adkit.outcome': 'completed',
    });
  });
});

function compareTime(a: readonly [number, number], b: readonly [number, number]): number {
  return a[0] !== b[0] ? a[0] - b[0] : a[1] - b[1];
}
