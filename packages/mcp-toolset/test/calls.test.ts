// One call (MCP-7, HC-2): timeout, cancellation, progress, results, confirmation. SDK-built
// servers in memory. Bad input tried: a tool that never answers, a run aborted mid-call, progress
// past its total with a 5,000-character message, structured content with "__proto__" keys and
// base64 images, audio for a model that cannot take it, a confirmation provider that throws, one
// signal shared by 50 calls.
import { getEventListeners } from 'node:events';
import { createLlmRequest, type ProgressReport, type ToolContext, responsePartsOf } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { withConfirmation } from '@adkit/confirmation';
import { describe, expect, it } from 'vitest';
import { mcpToolset, type McpTool, type McpToolsetOptions } from '../src/index.js';
import { callServer as testServer, PNG, type Observed } from './support/callServer.js';
import { inMemoryServer } from './support/sdkServers.js';
import { waitFor } from './support/waitFor.js';

async function setup(options: McpToolsetOptions = {}) {
  const observed: Observed = { cancelled: [], calls: [] };
  const server = inMemoryServer(() => testServer(observed));
  const toolset = mcpToolset(server, options);
  const tools = new Map(((await toolset.tools(createToolContext())) as McpTool[]).map((tool) => [tool.name, tool]));
  return { observed, server, toolset, tools: (name: string) => tools.get(name)! };
}

describe('timeouts and cancellation', () => {
  it('a hanging tool fails after timeoutMs, the server is told to cancel, the connection stays usable', async () => {
    const { observed, server, toolset, tools } = await setup({ timeoutMs: 150 });
    expect(tools('hang').timeoutMs).toBe(150); // the flow enforces it too (untilAborted)
    const started = Date.now();
    await expect(tools('hang').run(createToolContext(), {})).rejects.toMatchObject({
      code: 'TOOL_TIMEOUT',
      message: 'Tool "hang" timed out after 150 ms.',
    });
    expect(Date.now() - started).toBeLessThan(1_500);
    await waitFor(() => observed.cancelled.length === 1);
    expect(observed.cancelled[0]).toMatch(/timed out/i);
    expect(await tools('ping').run(createToolContext(), {})).toEqual({ output: 'pong' });
    expect(server.connects).toBe(1);
    await toolset.close();
  });

  it("the run's abort (ctx.signal) becomes an MCP cancellation", async () => {
    const { observed, toolset, tools } = await setup();
    const controller = new AbortController();
    const call = tools('hang').run(createToolContext({ signal: controller.signal }), {});
    await waitFor(() => observed.calls.includes('hang'));
    controller.abort(new Error('user left'));
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED', message: 'The call to tool "hang" was cancelled.' });
    await waitFor(() => observed.cancelled.length === 1);
    expect(observed.cancelled[0]).toContain('user left');
    await toolset.close();
  });

  it('50 calls on one long-lived signal leave at most 4 abort listeners on it; a late abort still cancels', async () => {
    const { observed, toolset, tools } = await setup();
    const controller = new AbortController();
    for (let i = 0; i < 50; i++) await tools('ping').run(createToolContext({ signal: controller.signal }), {});
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(4); // the SDK never removes its own
    const call = tools('hang').run(createToolContext({ signal: controller.signal }), {});
    await waitFor(() => observed.calls.includes('hang'));
    controller.abort(new Error('stop'));
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    await waitFor(() => observed.cancelled.length === 1);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(4);
    await toolset.close();
  });

  it('#24: 20 calls sent at once on one signal (each after an async meta hook) leave at most 4 abort listeners on it', async () => {
    const { observed, toolset, tools } = await setup({ meta: async () => ({ tenant: 'acme' }) });
    const controller = new AbortController();
    const calls = Array.from({ length: 20 }, () => tools('ping').run(createToolContext({ signal: controller.signal }), {}));
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 20 }, () => ({ output: 'pong' })));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(4);
    const call = tools('hang').run(createToolContext({ signal: controller.signal }), {});
    await waitFor(() => observed.calls.includes('hang'));
    controller.abort(new Error('stop'));
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    await waitFor(() => observed.cancelled.length === 1);
    expect(observed.cancelled[0]).toContain('stop');
    await toolset.close();
  });

  it('#24: a look-alike signal (not Node\'s own EventTarget) is linked for the call; its abort still cancels', async () => {
    const { observed, toolset, tools } = await setup();
    const target = new EventTarget();
    const lookAlike = {
      aborted: false,
      reason: undefined as unknown,
      addEventListener: (type: string, listener: () => void) => target.addEventListener(type, listener),
      removeEventListener: (type: string, listener: () => void) => target.removeEventListener(type, listener),
      throwIfAborted() {},
    };
    const signal = lookAlike as unknown as AbortSignal;
    expect(await tools('ping').run(createToolContext({ signal }), {})).toEqual({ output: 'pong' });
    expect(getEventListeners(target, 'abort')).toHaveLength(0);
    const call = tools('hang').run(createToolContext({ signal }), {});
    await waitFor(() => observed.calls.includes('hang'));
    Object.assign(lookAlike, { aborted: true, reason: new Error('user left') });
    target.dispatchEvent(new Event('abort'));
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED', message: 'The call to tool "hang" was cancelled.' });
    await waitFor(() => observed.cancelled.length === 1);
    expect(observed.cancelled[0]).toContain('user left');
    await toolset.close();
  });

  it("#24: a signal carrying the app's own listeners is linked for the call and unlinked after it; its abort still cancels", async () => {
    const { observed, toolset, tools } = await setup();
    const controller = new AbortController();
    const own = Array.from({ length: 5 }, () => () => {});
    for (const listener of own) controller.signal.addEventListener('abort', listener);
    expect(await tools('ping').run(createToolContext({ signal: controller.signal }), {})).toEqual({ output: 'pong' });
    expect(getEventListeners(controller.signal, 'abort')).toEqual(own);
    const call = tools('hang').run(createToolContext({ signal: controller.signal }), {});
    await waitFor(() => observed.calls.includes('hang'));
    controller.abort(new Error('user left'));
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED', message: 'The call to tool "hang" was cancelled.' });
    await waitFor(() => observed.cancelled.length === 1);
    expect(observed.cancelled[0]).toContain('user left');
    await toolset.close();
  });
});

describe('progress', () => {
  it('server progress notifications become ctx.reportProgress reports (fraction clamped, long messages cut)', async () => {
    const { toolset, tools } = await setup();
    const reports: ProgressReport[] = [];
    const result = await tools('steps').run(createToolContext({ onProgress: (report) => reports.push(report) }), {});
    expect(result).toEqual({ output: 'done' });
    expect(reports).toEqual([
      { fraction: 1 / 3 },
      { fraction: 2 / 3, message: 'two of three' },
      { fraction: 1, message: `${'y'.repeat(1_000)}…` },
    ]);
    await toolset.close();
  });

  it('#24: with elicitation on, the call still reports progress and still cancels when the run aborts', async () => {
    const { observed, toolset, tools } = await setup({ elicitation: { handler: () => ({ action: 'decline' }) } });
    const reports: ProgressReport[] = [];
    expect(await tools('steps').run(createToolContext({ onProgress: (report) => reports.push(report) }), {})).toEqual({ output: 'done' });
    expect(reports).toEqual([
      { fraction: 1 / 3 },
      { fraction: 2 / 3, message: 'two of three' },
      { fraction: 1, message: `${'y'.repeat(1_000)}…` },
    ]);
    const controller = new AbortController();
    const call = tools('hang').run(createToolContext({ signal: controller.signal }), {});
    await waitFor(() => observed.calls.includes('hang'));
    controller.abort(new Error('user left'));
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED', message: 'The call to tool "hang" was cancelled.' });
    await waitFor(() => observed.cancelled.length === 1);
    expect(observed.cancelled[0]).toContain('user left');
    await toolset.close();
  });
});

describe('results', () => {
  it('structuredContent with "__proto__" keys pollutes nothing, and its base64 media become labels', async () => {
    const { toolset, tools } = await setup();
    const { output } = (await tools('structured').run(createToolContext(), {})) as { output: Record<string, unknown> };
    // The SDK's result schema drops the "__proto__" key before the toolset sees it.
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(output.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(output.items).toEqual<unknown[]>([
      { type: 'image', mimeType: 'image/png', data: `[MCP image: mimeType="image/png", size=${Buffer.from(PNG, 'base64').length} bytes]` },
      { constructor: 'x' },
    ]);
    await toolset.close();
  });

  it('#30: images and audio go beside the result as response parts; inlineMedia: images to every model, audio to Gemini only, false labels only', async () => {
    const attached = async (options: McpToolsetOptions, model: string) => {
      const { toolset, tools } = await setup(options);
      const media = tools('media');
      const result = await media.run(createToolContext({ functionCallId: 'm1' }), {});
      const request = createLlmRequest({
        model,
        contents: [
          { role: 'model', parts: [{ functionCall: { id: 'm1', name: 'media', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { id: 'm1', name: 'media', response: result, parts: [...(responsePartsOf(result) ?? [])] } }] },
        ],
      });
      Object.assign(request.tools, { media });
      await toolset.processRequest(createToolContext(), request);
      await toolset.close();
      return { result, sent: request.contents[1]!.parts![0]!.functionResponse!.parts?.map((part) => part.inlineData?.mimeType) };
    };
    const openai = await attached({}, 'gpt-4.1-mini');
    expect(openai.result).toEqual({
      output: 'Here:\n[MCP image: mimeType="image/png", size=21 bytes]\n[MCP audio: mimeType="audio/wav", size=21 bytes]',
    });
    expect(responsePartsOf(openai.result)).toEqual([{ inlineData: { mimeType: 'image/png', data: PNG } }, { inlineData: { mimeType: 'audio/wav', data: expect.any(String) } }]);
    expect(openai.sent).toEqual(['image/png']);
    expect((await attached({}, 'gemini-2.5-flash')).sent).toEqual(['image/png', 'audio/wav']);
    expect((await attached({ inlineMedia: false }, 'gemini-2.5-flash')).sent).toBeUndefined();
    expect((await attached({ inlineMedia: ({ kind }) => kind === 'audio' }, 'gpt-4o-audio')).sent).toEqual(['audio/wav']);
  });
});

describe('confirmation (HC-2, HC-11)', () => {
  it('requireConfirmation: true asks first and sends nothing; approval runs the call; rejection refuses it', async () => {
    const { observed, toolset, tools } = await setup({ requireConfirmation: true });
    const first: ToolContext = createToolContext({ functionCallId: 'c1' });
    await expect(tools('echo').run(first, { value: 'hi' })).rejects.toMatchObject({
      code: 'CONFIRMATION_REQUIRED',
      message: 'error tool "echo" requires confirmation, please approve or reject',
    });
    expect(first.actions.requestedToolConfirmations).toEqual({
      c1: {
        confirmed: false,
        hint: 'Approve "echo"?',
      },
    });
    expect(observed.calls).toEqual([]);
    expect(await tools('echo').run(createToolContext({ toolConfirmation: { confirmed: true } }), { value: 'hi' })).toEqual({ output: 'hi' });
    await expect(tools('echo').run(createToolContext({ toolConfirmation: { confirmed: false } }), { value: 'no' })).rejects.toMatchObject({
      code: 'CALL_REJECTED',
      message: 'error tool "echo" call is rejected',
    });
    expect(observed.calls).toEqual(['echo hi']);
    await toolset.close();
  });

  it("#24: a rejection in ctx.toolConfirmation refuses the call even when the toolset asks for no confirmation", async () => {
    const { observed, toolset, tools } = await setup();
    await expect(tools('echo').run(createToolContext({ toolConfirmation: { confirmed: false } }), { value: 'no' })).rejects.toMatchObject({
      code: 'CALL_REJECTED',
      message: 'error tool "echo" call is rejected',
    });
    expect(await tools('echo').run(createToolContext({ toolConfirmation: { confirmed: true } }), { value: 'yes' })).toEqual({ output: 'yes' });
    expect(observed.calls).toEqual(['echo yes']);
    await toolset.close();
  });

  it('a provider decides per call from (toolName, raw args); one that throws fails the call, not the run', async () => {
    const seen: unknown[] = [];
    const { observed, toolset, tools } = await setup({
      requireConfirmation: (name, args) => {
        seen.push([name, args]);
        if (args.value === 'boom') throw new Error('provider broke');
        return args.value === 'delete';
      },
    });
    expect(await tools('echo').run(createToolContext(), { value: 'read' })).toEqual({ output: 'read' });
    await expect(tools('echo').run(createToolContext(), { value: 'delete' })).rejects.toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
    await expect(tools('echo').run(createToolContext(), { value: 'boom' })).rejects.toThrow('provider broke');
    expect(seen).toEqual([
      ['echo', { value: 'read' }],
      ['echo', { value: 'delete' }],
      ['echo', { value: 'boom' }],
    ]);
    expect(observed.calls).toEqual(['echo read']);
    await toolset.close();
  });

  it('withConfirmation wraps the toolset: same names and declarations, the gate before the server', async () => {
    const { observed, toolset } = await setup();
    const gated = withConfirmation(toolset, { require: (name: string) => name === 'echo' });
    const tools = (await gated.tools(createToolContext())) as McpTool[];
    const echo = tools.find((tool) => tool.name === 'echo')!;
    const inner = ((await toolset.tools(createToolContext())) as McpTool[]).find((tool) => tool.name === 'echo')!;
    expect(echo.declaration()).toEqual(inner.declaration());
    await expect(echo.run(createToolContext(), { value: 'x' })).rejects.toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
    expect(await tools.find((tool) => tool.name === 'ping')!.run(createToolContext(), {})).toEqual({ output: 'pong' });
    expect(observed.calls).toEqual(['ping']);
    await gated.close!();
  });
});
