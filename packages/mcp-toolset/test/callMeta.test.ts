// Each tools/call's `_meta` (#29): the W3C trace context of the call's span, read from the
// registry a tracing plugin fills (@adkit/otel, see its toolTraceContext test), then the app's
// per-call entries. Bad input tried: a malformed traceparent, a hook that throws or returns an
// array, a hook trying to replace progressToken, a "__proto__" key.
import type { ToolContext } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { TOOL_TRACE_CONTEXT, mcpToolset, type McpTool, type McpToolsetOptions } from '../src/index.js';
import { inMemoryServer } from './support/sdkServers.js';

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

function registry(): WeakMap<object, { traceparent: string; tracestate?: string }> {
  const holder = globalThis as { [TOOL_TRACE_CONTEXT]?: WeakMap<object, { traceparent: string; tracestate?: string }> };
  return (holder[TOOL_TRACE_CONTEXT] ??= new WeakMap());
}

async function setup(options: McpToolsetOptions = {}) {
  const metas: Record<string, unknown>[] = [];
  const server = inMemoryServer(() => {
    const mcp = new McpServer({ name: 'meta', version: '1.0.0' });
    mcp.registerTool('look', { description: 'Records its _meta.' }, async (extra) => {
      // The client's own progress token is always there (a number); the rest is what was added.
      const { progressToken, ...added } = extra._meta ?? {};
      if (typeof progressToken !== 'number') throw new Error(`progressToken replaced: ${String(progressToken)}`);
      metas.push(added);
      return { content: [{ type: 'text', text: 'ok' }] };
    });
    return mcp;
  });
  const toolset = mcpToolset(server, options);
  const [tool] = (await toolset.tools(createToolContext())) as McpTool[];
  return { metas, toolset, tool: tool! };
}

let traced: ToolContext | undefined;
afterEach(() => {
  if (traced) registry().delete(traced);
  traced = undefined;
});

describe('tools/call _meta', () => {
  it("carries the call span's traceparent and tracestate when a tracing plugin published them", async () => {
    const { metas, toolset, tool } = await setup();
    traced = createToolContext();
    registry().set(traced, { traceparent: TRACEPARENT, tracestate: 'vendor=1' });
    await tool.run(traced, {});
    await tool.run(createToolContext(), {}); // an untraced call: nothing added
    expect(metas).toEqual([{ traceparent: TRACEPARENT, tracestate: 'vendor=1' }, {}]);
    await toolset.close();
  });

  it('a malformed traceparent is not sent', async () => {
    const { metas, toolset, tool } = await setup();
    traced = createToolContext();
    registry().set(traced, { traceparent: '00-zz-1' });
    await tool.run(traced, {});
    expect(metas).toEqual([{}]);
    await toolset.close();
  });

  it("the app's hook adds entries per call (and may override the trace context), never progressToken", async () => {
    const hookCalls: unknown[] = [];
    const { metas, toolset, tool } = await setup({
      meta: (name, args, ctx) => {
        hookCalls.push([name, args, ctx.functionCallId]);
        return JSON.parse(`{"tenant":"acme","progressToken":"forged","__proto__":{"x":1}}`) as Record<string, unknown>;
      },
    });
    traced = createToolContext({ functionCallId: 'c1' } as never);
    registry().set(traced, { traceparent: TRACEPARENT });
    await tool.run(traced, { q: 1 } as never);
    expect(hookCalls).toEqual([['look', { q: 1 }, 'c1']]);
    expect(metas[0]).toEqual({ traceparent: TRACEPARENT, tenant: 'acme', ['__proto__']: { x: 1 } });
    expect(Object.getPrototypeOf(metas[0])).toBe(Object.prototype);
    await toolset.close();
  });

  it('a hook that throws, or returns something else than an object, fails the call with a clear error', async () => {
    const throwing = await setup({ meta: () => { throw new Error('no tenant'); } });
    await expect(throwing.tool.run(createToolContext(), {})).rejects.toMatchObject({
      code: 'MCP_META_FAILED',
      message: 'The app\'s meta hook failed for tool "look": no tenant',
    });
    expect(throwing.metas).toEqual([]);
    await throwing.toolset.close();
    const array = await setup({ meta: () => [1] as never });
    await expect(array.tool.run(createToolContext(), {})).rejects.toMatchObject({
      message: 'The app\'s meta hook for tool "look" must return an object of _meta entries or undefined.',
    });
    await array.toolset.close();
  });

  it('#24: an async hook: its entries are sent; one that rejects fails the call with the same clear error', async () => {
    const { metas, toolset, tool } = await setup({ meta: async (name) => ({ tenant: `acme-${name}` }) });
    expect(await tool.run(createToolContext(), {})).toEqual({ output: 'ok' });
    expect(metas).toEqual([{ tenant: 'acme-look' }]);
    await toolset.close();
    const rejecting = await setup({ meta: async () => Promise.reject(new Error('no tenant')) });
    await expect(rejecting.tool.run(createToolContext(), {})).rejects.toMatchObject({
      code: 'MCP_META_FAILED',
      message: 'The app\'s meta hook failed for tool "look": no tenant',
    });
    expect(rejecting.metas).toEqual([]);
    await rejecting.toolset.close();
  });

  it('meta must be a function', () => {
    expect(() => mcpToolset({ transport: () => { throw new Error('unused'); } }, { meta: {} as never })).toThrow(
      'mcpToolset "mcp_tool_set": meta must be a function (toolName, args, ctx) => ({...entries}).',
    );
  });
});
