// With @adkit/otel's plugin active, a traced MCP server joins the trace (#29): each tools/call's
// `_meta.traceparent` is the W3C context of that call's execute_tool span; two calls at once each
// carry their own.
import { InMemoryRunner, LlmAgent, createUserContent } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { otelPlugin } from '@adkit/otel';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpToolset } from '../src/index.js';
import { inMemoryServer } from './support/sdkServers.js';

describe('W3C trace context in tools/call _meta', () => {
  it("each call carries its own execute_tool span's traceparent", async () => {
    const seen = new Map<string, unknown>();
    let arrived = 0;
    let release!: () => void;
    const both = new Promise<void>((resolve) => (release = resolve));
    const server = inMemoryServer(() => {
      const mcp = new McpServer({ name: 'traced', version: '1.0.0' });
      mcp.registerTool('lookup', { description: 'Looks up.', inputSchema: { key: z.string() } }, async ({ key }, extra) => {
        seen.set(key, extra._meta?.traceparent);
        if (++arrived === 2) release();
        await both; // the two calls overlap
        return { content: [{ type: 'text', text: key }] };
      });
      return mcp;
    });
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
    const model = new ScriptedModel([
      functionCallResponse([
        { name: 'lookup', args: { key: 'a' } },
        { name: 'lookup', args: { key: 'b' } },
      ]),
      textResponse('done'),
    ]);
    const runner = new InMemoryRunner({
      agent: new LlmAgent({ name: 'assistant', model, toolsets: [mcpToolset(server)] }),
      plugins: [otelPlugin({ tracer })],
      autoCreateSession: true,
    });
    for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: createUserContent('go') })) void event;
    await runner.close();
    const spans = exporter.getFinishedSpans().filter((span) => span.name === 'execute_tool lookup');
    expect(spans).toHaveLength(2);
    const expected = spans.map((span) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`).sort();
    expect([...seen.values()].sort()).toEqual(expected);
    expect(seen.get('a')).not.toBe(seen.get('b'));
  });
});
