import { InMemoryRunner, LlmAgent, createUserContent } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import { otelPlugin } from '@adkit/otel';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import Type from 'typebox';

const exporter = new InMemorySpanExporter(); // in production: an OTLP exporter, registered globally
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const getWeather = functionTool({
  name: 'get_weather',
  description: 'Returns the weather in a city.',
  parameters: Type.Object({ city: Type.String() }),
  execute: async ({ city }) => ({ city, forecast: 'sunny' }),
});
// Offline: a scripted model stands in for gpt-4.1-mini and calls the tool twice in parallel.
const model = new ScriptedModel([
  functionCallResponse([{ name: 'get_weather', args: { city: 'Paris' }, id: 'call_paris' }, { name: 'get_weather', args: { city: 'Tokyo' }, id: 'call_tokyo' }]),
  textResponse('Sunny in both.', { usageMetadata: { promptTokenCount: 42, candidatesTokenCount: 5 } }),
], { model: 'gpt-4.1-mini' });
const runner = new InMemoryRunner({
  agent: new LlmAgent({ name: 'weather_agent', model, tools: [getWeather] }),
  plugins: [otelPlugin({ tracer: provider.getTracer('weather-app') })],
  autoCreateSession: true,
});
for await (const _ of runner.runAsync({ userId: 'ann', sessionId: 's1', newMessage: createUserContent('Paris and Tokyo?') }));

// Print the spans as a tree, each with a few of its attributes.
const spans = exporter.getFinishedSpans();
const print = (parent: ReadableSpan | undefined, depth: number) => {
  const children = spans.filter((span) => span.parentSpanContext?.spanId === parent?.spanContext().spanId);
  for (const span of children.sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1])) {
    const { 'gen_ai.tool.call.id': id, 'gen_ai.usage.output_tokens': tokens, 'adkit.outcome': outcome } = span.attributes;
    console.log(`${'  '.repeat(depth)}${span.name}${id ? ` ${id}` : ''}${tokens ? ` (${tokens} tokens out)` : ''}: ${outcome}`);
    print(span, depth + 1);
  }
};
print(undefined, 0);
