// withConfirmation (HC-11, #9 point 11): every call of a wrapped toolset asks first — streaming
// calls too (a deliberate difference from ADK Go, which leaves them ungated) — and each wrapped tool
// keeps every other capability. Bad input tried: a streaming tool whose consumer leaves early, a
// rejection, tools and toolsets that register extra tools in processRequest (which must not slip
// past the gate), a missing toolset, a `requireConfirmation` that is not a boolean or a function,
// null options, the new and the old name given with different values.
import {
  createLlmRequest,
  getFunctionCalls,
  getFunctionResponses,
  isResponseDeferrer,
  isResumableTool,
  isRunnableTool,
  isStreamingTool,
  packTool,
  type Event,
  type LlmRequest,
  type RequestContext,
  type RunnableTool,
  type StreamingTool,
  type Tool,
  type Toolset,
} from '@adkit/flow';
import { createToolContext, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { isToolError } from '@adkit/tool';
import { describe, expect, it } from 'vitest';
import { REQUEST_CONFIRMATION, createConfirmationReply, withConfirmation } from '../src/index.js';
import { Harness, recordingTool } from './support.js';

const REQUIRED = 'error tool "tail" requires confirmation, please approve or reject';

/** A streaming tool that records how far its stream got. */
function tailTool() {
  const log: string[] = [];
  const tool: StreamingTool = {
    name: 'tail',
    description: 'Streams the log.',
    declaration: () => ({ name: 'tail', description: 'Streams the log.' }),
    async *runStream() {
      log.push('started');
      try {
        yield 'line 1\n';
        yield 'line 2\n';
      } finally {
        log.push('closed');
      }
    },
  };
  return { tool, log };
}

async function toolsOf(toolset: Toolset): Promise<Tool[]> {
  return toolset.tools(createToolContext());
}

describe('withConfirmation (HC-11)', () => {
  it('keeps the toolset name and close; each tool keeps its settings and every capability', async () => {
    let closed = false;
    const later = recordingTool('deploy', undefined, {
      isLongRunning: true,
      timeoutMs: 500,
      ...{ defersResponse: () => true, resume: async () => ({ resumed: true }) },
    });
    const { tool: tail } = tailTool();
    const wrapped = withConfirmation({ name: 'ops', tools: async () => [later, tail], close: async () => void (closed = true) }, { require: true });
    expect(wrapped.name).toBe('ops');
    const [deploy, stream] = (await toolsOf(wrapped)) as [RunnableTool, StreamingTool];
    expect(deploy).not.toBe(later);
    expect([deploy.name, deploy.description, deploy.isLongRunning, deploy.timeoutMs, deploy.declaration()]).toEqual([
      'deploy',
      'the deploy tool',
      true,
      500,
      later.declaration(),
    ]);
    expect([isRunnableTool(deploy), isResponseDeferrer(deploy), isResumableTool(deploy), isStreamingTool(deploy)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(stream).not.toBe(tail); // streaming tools are gated too, not passed through
    expect([isStreamingTool(stream), isRunnableTool(stream)]).toEqual([true, false]);
    await wrapped.close!();
    expect(closed).toBe(true);
  });

  it('a streaming call asks before its first chunk; approved, it streams as before; rejected, it never starts', async () => {
    const { tool, log } = tailTool();
    const [stream] = (await toolsOf(withConfirmation({ name: 'ops', tools: async () => [tool] }, { require: true }))) as [StreamingTool];
    const ctx = createToolContext({ functionCallId: 'call-1' });
    const first = await stream.runStream(ctx, {})[Symbol.asyncIterator]().next().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isToolError(first) && first.code).toBe('CONFIRMATION_REQUIRED');
    expect((first as Error).message).toBe(REQUIRED);
    expect(Object.keys(ctx.actions.requestedToolConfirmations ?? {})).toEqual(['call-1']);
    expect(log).toEqual([]);

    const chunks: string[] = [];
    for await (const chunk of stream.runStream(createToolContext({ toolConfirmation: { confirmed: true } }), {})) chunks.push(chunk);
    expect(chunks).toEqual(['line 1\n', 'line 2\n']);
    expect(log).toEqual(['started', 'closed']);

    const rejected = stream.runStream(createToolContext({ toolConfirmation: { confirmed: false } }), {});
    await expect(rejected[Symbol.asyncIterator]().next()).rejects.toThrow('error tool "tail" call is rejected');
    expect(log).toEqual(['started', 'closed']);
  });

  it('a consumer that stops after the first approved chunk closes the tool\'s stream', async () => {
    const { tool, log } = tailTool();
    const [stream] = (await toolsOf(withConfirmation({ name: 'ops', tools: async () => [tool] }, { require: () => true }))) as [StreamingTool];
    for await (const chunk of stream.runStream(createToolContext({ toolConfirmation: { confirmed: true } }), {})) {
      expect(chunk).toBe('line 1\n');
      break;
    }
    expect(log).toEqual(['started', 'closed']);
  });

  it('HC-11 end to end: a streaming tool pauses the run for approval, then streams its result', async () => {
    const { tool, log } = tailTool();
    const h = new Harness([functionCallResponse([{ name: 'tail', args: {}, id: 'orig-1' }]), textResponse('Two lines.')], {
      toolsets: [withConfirmation({ name: 'ops', tools: async () => [tool] }, { require: true })],
    });
    const first = await h.send('show the log');
    expect(getFunctionResponses(first.find((e) => getFunctionResponses(e).length > 0)!)).toEqual([
      { id: 'orig-1', name: 'tail', response: { error: REQUIRED } },
    ]);
    const request = first.flatMap(getFunctionCalls).find((c) => c.name === REQUEST_CONFIRMATION)!;
    expect(request.args).toMatchObject({ originalFunctionCall: { id: 'orig-1', name: 'tail' } });
    expect(log).toEqual([]);

    const resumed = await h.send(createConfirmationReply(request, { confirmed: true }));
    const answered = resumed.find((e: Event) => !e.partial && getFunctionResponses(e).length > 0)!;
    expect(getFunctionResponses(answered)).toEqual([{ id: 'orig-1', name: 'tail', response: { result: 'line 1\nline 2\n' } }]);
    expect(log).toEqual(['started', 'closed']);
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe('Two lines.');
  });

  it('what a tool or the toolset registers in processRequest is gated too; the wrapper replaces a self-registration', async () => {
    const helper = recordingTool('helper');
    const selfRegistering = {
      ...recordingTool('search'),
      async processRequest(_ctx: RequestContext, request: LlmRequest) {
        packTool(request, selfRegistering);
        packTool(request, helper);
      },
    };
    const extra = recordingTool('extra');
    const plain = recordingTool('fetch');
    const wrapped = withConfirmation(
      {
        name: 'web',
        tools: async () => [selfRegistering, plain],
        processRequest: async (_ctx: RequestContext, request: LlmRequest) => packTool(request, extra),
      } as Toolset,
      { require: true },
    );
    const tools = (await toolsOf(wrapped)) as Array<RunnableTool & { processRequest?(c: RequestContext, r: LlmRequest): Promise<void> }>;
    expect(tools[1]!.processRequest).toBeUndefined(); // the flow registers a plain tool itself
    const request = createLlmRequest();
    await tools[0]!.processRequest!(createToolContext(), request);
    await (wrapped as Toolset & { processRequest(c: RequestContext, r: LlmRequest): Promise<void> }).processRequest(createToolContext(), request);
    expect(Object.keys(request.tools)).toEqual(['search', 'helper', 'extra']);
    expect(request.tools.search).toBe(tools[0]);
    expect(request.config.tools![0]!.functionDeclarations!.map((d) => d.name)).toEqual(['search', 'helper', 'extra']);
    for (const name of ['search', 'helper', 'extra']) {
      const registered = request.tools[name] as RunnableTool;
      await expect(registered.run(createToolContext(), {})).rejects.toThrow(`error tool "${name}" requires confirmation`);
    }
    expect([selfRegistering.runs, helper.runs, extra.runs]).toEqual([[], [], []]);
  });

  it('construction errors name the fix', () => {
    expect(() => withConfirmation(undefined as never, { require: true })).toThrow(
      'withConfirmation needs a toolset (an object with name and tools(ctx)) as its first argument.',
    );
    expect(() => withConfirmation({ name: 'x', tools: async () => [] }, { require: 'always' as never })).toThrow(
      'withConfirmation(x): requireConfirmation must be true, false or a function (toolName, args, ctx) => boolean, got string.',
    );
    expect(() => withConfirmation({ name: 'x', tools: async () => [] }, null as never)).toThrow(
      'withConfirmation(x): the options must be an object such as {requireConfirmation: true}, got null.',
    );
    expect(() => withConfirmation({ name: 'x', tools: async () => [] }, { requireConfirmation: true, require: false })).toThrow(
      'withConfirmation(x): give requireConfirmation only (require is its old name).',
    );
  });

  it('#31: requireConfirmation is the option\'s name, as in functionTool and mcpToolset; require stays as its deprecated alias; no options gate every call', async () => {
    const deploy = recordingTool('deploy');
    const toolset = { name: 'x', tools: async () => [deploy] };
    const gated = async (options?: Parameters<typeof withConfirmation>[1]) => {
      const [tool] = (await toolsOf(withConfirmation(toolset, options))) as [RunnableTool];
      return tool.run(createToolContext(), { env: 'prod' }).then(
        () => false,
        (error: unknown) => String(error).includes('requires confirmation'),
      );
    };
    expect(await gated()).toBe(true);
    expect(await gated({ requireConfirmation: true })).toBe(true);
    expect(await gated({ requireConfirmation: false })).toBe(false);
    expect(await gated({ requireConfirmation: (name) => name === 'deploy' })).toBe(true);
    expect(await gated({ require: false })).toBe(false); // the old name, for one release
    expect(await gated({ requireConfirmation: false, require: false })).toBe(false);
  });

  it('a toolset error passes through with the toolset untouched', async () => {
    const wrapped = withConfirmation({ name: 'x', tools: async () => Promise.reject(new Error('offline')) }, { require: false });
    await expect(wrapped.tools(createToolContext())).rejects.toThrow('offline');
  });

  it('require: false and a predicate that declines let calls through unasked', async () => {
    const deploy = recordingTool('deploy');
    const [open] = (await toolsOf(withConfirmation({ name: 'x', tools: async () => [deploy] }, { require: (name) => name !== 'deploy' }))) as [
      RunnableTool,
    ];
    expect(await open.run(createToolContext(), { env: 'dev' })).toEqual({ ok: true });
    expect(deploy.runs).toEqual([{ args: { env: 'dev' }, confirmed: undefined, payload: undefined }]);
  });
});
