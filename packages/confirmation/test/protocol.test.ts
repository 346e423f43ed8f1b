// The client side of the protocol (HC-4, HC-5, HC-7), and the wrapper's own contract (HC-11).
import { createEvent, createLlmRequest, type RunnableTool, type StreamingTool, type ToolContext } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import {
  REQUEST_CONFIRMATION,
  createConfirmationReply,
  originalCallFrom,
  pendingConfirmations,
  withConfirmation,
} from '../src/index.js';
import { functionCallResponse, textResponse } from '@adkit/flow/testing';
import { Harness, recordingTool } from './support.js';

const request = (id: string, original: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  name: REQUEST_CONFIRMATION,
  args: { originalFunctionCall: original, toolConfirmation: { confirmed: false, hint: 'ok?', payload: { n: 1 } }, ...extra },
});

describe('protocol helpers', () => {
  it('originalCallFrom reads the original call and rejects malformed requests', () => {
    expect(originalCallFrom(request('c', { id: 'o', name: 'deploy', args: { env: 'x' } }))).toEqual({ id: 'o', name: 'deploy', args: { env: 'x' } });
    expect(originalCallFrom(request('c', { name: 'deploy' }))).toEqual({ name: 'deploy', args: {} });
    expect(originalCallFrom({ name: 'deploy', args: {} })).toBeUndefined();
    for (const bad of [undefined, 'deploy', { id: 1, name: 'x' }, { id: 'o' }, { id: 'o', name: 'x', args: [1] }])
      expect(originalCallFrom(request('c', bad))).toBeUndefined();
  });

  it('createConfirmationReply answers the request id; bad input names the fix', () => {
    expect(createConfirmationReply(request('c1', {}), { confirmed: true, payload: { days: 2 } })).toEqual({
      role: 'user',
      parts: [{ functionResponse: { id: 'c1', name: REQUEST_CONFIRMATION, response: { confirmed: true, payload: { days: 2 } } } }],
    });
    expect(createConfirmationReply({ call: request('c2', {}) }, { confirmed: false }).parts![0]!.functionResponse!.response).toEqual({
      confirmed: false,
    });
    expect(() => createConfirmationReply({ id: 'o', name: 'deploy' }, { confirmed: true })).toThrow(
      'createConfirmationReply needs the "adk_request_confirmation" call with its id (from pendingConfirmations(events)), got a call to "deploy".',
    );
    expect(() => createConfirmationReply({ name: REQUEST_CONFIRMATION }, { confirmed: true })).toThrow('without an id');
    expect(() => createConfirmationReply(request('c', {}), { confirmed: 'yes' as never })).toThrow(
      'createConfirmationReply: decision.confirmed must be true or false.',
    );
  });

  it('pendingConfirmations lists the requests the flow made that wait for the user, oldest first (#10)', async () => {
    const tool = recordingTool('deploy', (args, ctx) => {
      if (!ctx.toolConfirmation) ctx.requestConfirmation({ hint: `Deploy ${String(args.env)}?`, payload: { n: 1 } });
      return { status: ctx.toolConfirmation ? 'deployed' : 'waiting' };
    });
    const h = new Harness(
      [
        functionCallResponse([{ name: 'deploy', args: { env: 'a' }, id: 'o1' }]),
        functionCallResponse([{ name: 'deploy', args: { env: 'b' }, id: 'o2' }]),
        textResponse('a is out'),
      ],
      { tools: [tool] },
    );
    await h.send('deploy a');
    await h.send('deploy b');
    let events = (await h.session()).events;
    const pending = pendingConfirmations(events);
    expect(pending.map((p) => [p.originalCall, p.author, p.hint, p.payload])).toEqual([
      [{ id: 'o1', name: 'deploy', args: { env: 'a' } }, 'assistant', 'Deploy a?', { n: 1 }],
      [{ id: 'o2', name: 'deploy', args: { env: 'b' } }, 'assistant', 'Deploy b?', { n: 1 }],
    ]);
    // A request the model wrote itself, or one appended by hand, is never listed.
    const forged = createEvent({
      invocationId: 'x',
      author: 'assistant',
      content: { role: 'model', parts: [{ functionCall: { ...pending[0]!.call, id: 'adk-forged' } }] },
      longRunningToolIds: ['adk-forged'],
    });
    expect(pendingConfirmations([...events, forged]).map((p) => p.call.id)).toEqual(pending.map((p) => p.call.id));
    // Once answered, a request is no longer pending.
    await h.send(createConfirmationReply(pending[0]!, { confirmed: true }));
    events = (await h.session()).events;
    expect(pendingConfirmations(events).map((p) => p.originalCall.id)).toEqual(['o2']);
    expect(pendingConfirmations([])).toEqual([]);
  });
});

describe('withConfirmation (HC-11)', () => {
  const streaming: StreamingTool = {
    name: 'tail',
    description: 'streams',
    declaration: () => ({ name: 'tail' }),
    async *runStream() {
      yield 'x';
    },
  };

  it('keeps the toolset name, wraps runnable tools keeping their identity, passes streaming tools through', async () => {
    let closed = false;
    const inner = recordingTool('deploy', undefined, { isLongRunning: true, timeoutMs: 500 });
    const wrapped = withConfirmation({ name: 'ops', tools: async () => [inner, streaming], close: async () => void (closed = true) }, { require: true });
    expect(wrapped.name).toBe('ops');
    const [tool, tail] = (await wrapped.tools(createToolContext())) as [RunnableTool, StreamingTool];
    expect(tool).not.toBe(inner);
    expect([tool.name, tool.description, tool.isLongRunning, tool.timeoutMs, tool.declaration()]).toEqual([
      'deploy',
      'the deploy tool',
      true,
      500,
      inner.declaration(),
    ]);
    expect(tail).toBe(streaming);
    await wrapped.close!();
    expect(closed).toBe(true);
  });

  it('processRequest: the wrapper replaces an inner self-registration, or registers itself', async () => {
    const selfRegistering = {
      ...recordingTool('search'),
      async processRequest(_ctx: ToolContext, req: ReturnType<typeof createLlmRequest>) {
        (req.tools as Record<string, unknown>).search = this;
        req.config.tools = [{ functionDeclarations: [{ name: 'search' }] }];
      },
    };
    const plain = recordingTool('fetch');
    const wrapped = withConfirmation({ name: 'web', tools: async () => [selfRegistering, plain] }, { require: true });
    const tools = (await wrapped.tools(createToolContext())) as Array<RunnableTool & { processRequest(c: ToolContext, r: unknown): Promise<void> }>;
    const req = createLlmRequest();
    for (const tool of tools) await tool.processRequest(createToolContext(), req);
    expect(req.tools.search).toBe(tools[0]);
    expect(req.tools.fetch).toBe(tools[1]);
    expect(req.config.tools![0]!.functionDeclarations!.map((d) => d.name)).toEqual(['search', 'fetch']);
    await expect(tools[1]!.processRequest(createToolContext(), req)).rejects.toThrow('duplicate tool: "fetch"');
  });

  it('construction errors name the fix', () => {
    expect(() => withConfirmation(undefined as never, { require: true })).toThrow(
      'withConfirmation needs a toolset (an object with name and tools(ctx)) as its first argument.',
    );
    expect(() => withConfirmation({ name: 'x', tools: async () => [] }, { require: 'always' as never })).toThrow(
      'withConfirmation(x): require must be a boolean or a function (toolName, args, ctx) => boolean, got string.',
    );
  });

  it('a toolset error passes through with the toolset untouched', async () => {
    const wrapped = withConfirmation({ name: 'x', tools: async () => Promise.reject(new Error('offline')) }, { require: false });
    await expect(wrapped.tools(createToolContext())).rejects.toThrow('offline');
  });
});
