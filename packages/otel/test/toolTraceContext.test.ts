// The trace context each tool call's span publishes for tools to propagate (an MCP tools/call's
// `_meta.traceparent`, #29): at globalThis[Symbol.for('adkit.toolTraceContext')], keyed by the
// call's ToolContext, while the execute_tool span is open; two calls at once each see their own.
import { LlmAgent } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { tracedRunner } from './support/tracing.js';

const REGISTRY = Symbol.for('adkit.toolTraceContext');
const registry = () => (globalThis as { [REGISTRY]?: WeakMap<object, { traceparent: string }> })[REGISTRY];

describe('tool trace context for propagation', () => {
  it("each running call finds its own execute_tool span's traceparent; it is withdrawn when the span ends", async () => {
    const seen = new Map<string, string | undefined>();
    const contexts: object[] = [];
    let arrived = 0;
    let release!: () => void;
    const both = new Promise<void>((resolve) => (release = resolve));
    const tool = (name: string) =>
      functionTool({
        name,
        description: 'Reads its trace context.',
        parameters: Type.Object({}),
        execute: async (_args, ctx) => {
          contexts.push(ctx);
          if (++arrived === 2) release();
          await both; // both calls run at once
          seen.set(name, registry()?.get(ctx)?.traceparent);
          return { ok: true };
        },
      });
    const model = new ScriptedModel([functionCallResponse([{ name: 'a', args: {} }, { name: 'b', args: {} }]), textResponse('done')]);
    const { tracing, run } = tracedRunner(new LlmAgent({ name: 'assistant', model, tools: [tool('a'), tool('b')] }));
    await run();
    for (const name of ['a', 'b']) {
      const span = tracing.span(`execute_tool ${name}`).spanContext();
      expect(seen.get(name)).toBe(`00-${span.traceId}-${span.spanId}-01`);
    }
    expect(seen.get('a')).not.toBe(seen.get('b'));
    for (const ctx of contexts) expect(registry()?.get(ctx)).toBeUndefined();
  });
});
