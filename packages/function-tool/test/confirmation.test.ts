// HC-2: the confirmation gate runs after argument conversion and before the handler; end to end,
// a confirmation is requested (HC-1, HC-4), then approved (HC-10) or rejected (HC-9) by a reply
// the client sends (HC-7). Bad input tried: invalid arguments on a confirmable tool (no request is
// made), a rejection on a tool that does not require confirmation, a predicate that throws.
import {
  createUserContent,
  getFunctionCalls,
  getFunctionResponses,
  LlmAgent,
  REQUEST_CONFIRMATION_FUNCTION,
  type Event,
  type ToolConfirmation,
} from '@adkit/flow';
import { createToolContext, functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { isToolError, type ToolError } from '@adkit/tool';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { functionTool, streamingFunctionTool } from '../src/index.js';
import { collect, session } from './support.js';

// #10: the hint is for the person approving; the model still gets REQUIRED.
const HINT = 'Approve "transfer" with {"amount":100}?';
const REQUIRED = 'error tool "transfer" requires confirmation, please approve or reject';
const REJECTED = 'error tool "transfer" call is rejected';

function transferTool(requireConfirmation: boolean | ((args: { amount: number }) => boolean | Promise<boolean>)) {
  const calls: { amount: number; confirmation?: ToolConfirmation }[] = [];
  const tool = functionTool({
    name: 'transfer',
    description: 'Sends money.',
    parameters: Type.Object({ amount: Type.Number({ minimum: 0 }) }),
    requireConfirmation,
    execute: ({ amount }, ctx) => {
      calls.push({ amount, confirmation: ctx.toolConfirmation });
      return { sent: amount };
    },
  });
  return { tool, calls };
}

async function failure(run: Promise<unknown>): Promise<ToolError> {
  const error = await run.then(() => undefined, (thrown: unknown) => thrown);
  expect(isToolError(error)).toBe(true);
  return error as ToolError;
}

describe('HC-2: the gate', () => {
  it('HC-2/HC-1: a first call requests confirmation and fails without running the handler', async () => {
    const { tool, calls } = transferTool(true);
    const ctx = createToolContext({ functionCallId: 'call-1', functionCall: { id: 'call-1', name: 'transfer', args: { amount: 100 } } });
    const error = await failure(tool.run(ctx, { amount: 100 }));
    expect(error.message).toBe(REQUIRED);
    expect(error.code).toBe('CONFIRMATION_REQUIRED');
    expect(ctx.actions.requestedToolConfirmations).toEqual({ 'call-1': { hint: HINT, confirmed: false } });
    expect(ctx.actions.skipSummarization).toBe(true);
    expect(calls).toEqual([]);
  });

  it('HC-2: invalid arguments fail before any confirmation is requested', async () => {
    const { tool } = transferTool(true);
    const ctx = createToolContext();
    expect((await failure(tool.run(ctx, { amount: -1 }))).code).toBe('INVALID_ARGUMENTS');
    expect(ctx.actions.requestedToolConfirmations).toBeUndefined();
    expect(ctx.actions.skipSummarization).toBeUndefined();
  });

  it('HC-2: the predicate gets the converted arguments and decides per call', async () => {
    const seen: unknown[] = [];
    const { tool, calls } = transferTool(async (args) => {
      seen.push(args);
      return args.amount > 1000;
    });
    expect(await tool.run(createToolContext(), { amount: '50' })).toEqual({ sent: 50 });
    expect((await failure(tool.run(createToolContext(), { amount: '5000' }))).message).toBe(REQUIRED);
    expect(seen).toEqual([{ amount: 50 }, { amount: 5000 }]);
    expect(calls.map((c) => c.amount)).toEqual([50]);
  });

  it('HC-2: on resume an approval runs the handler without asking again, with the payload at hand', async () => {
    let asked = 0;
    const { tool, calls } = transferTool(() => {
      asked++;
      return true;
    });
    const confirmation = { confirmed: true, payload: { approver: 'ada' } };
    expect(await tool.run(createToolContext({ toolConfirmation: confirmation }), { amount: 5 })).toEqual({ sent: 5 });
    expect(asked).toBe(0);
    expect(calls).toEqual([{ amount: 5, confirmation }]);
  });

  it('HC-9: a rejection fails, even for a tool that does not require confirmation', async () => {
    for (const requirement of [true, false]) {
      const { tool, calls } = transferTool(requirement);
      const error = await failure(tool.run(createToolContext({ toolConfirmation: { confirmed: false } }), { amount: 5 }));
      expect(error.message).toBe(REJECTED);
      expect(error.code).toBe('CALL_REJECTED');
      expect(calls).toEqual([]);
    }
  });

  it('HC-2: a predicate that throws fails the call with its error, and the handler does not run', async () => {
    const { tool, calls } = transferTool(() => {
      throw new Error('policy service unavailable');
    });
    await expect(tool.run(createToolContext(), { amount: 5 })).rejects.toThrow('policy service unavailable');
    expect(calls).toEqual([]);
  });

  it('HC-2/FT-7: a streaming tool runs the same gate before its handler', async () => {
    let started = false;
    const tool = streamingFunctionTool({
      name: 'transfer',
      description: 'Sends money, reporting progress.',
      parameters: Type.Object({ amount: Type.Number() }),
      requireConfirmation: true,
      async *execute() {
        started = true;
        yield 'sent';
      },
    });
    const ctx = createToolContext({ functionCallId: 'call-9' });
    await expect(tool.runStream(ctx, { amount: 1 })[Symbol.asyncIterator]().next()).rejects.toThrow(REQUIRED);
    expect(ctx.actions.requestedToolConfirmations).toEqual({ 'call-9': { hint: 'Approve "transfer"?', confirmed: false } });
    expect(started).toBe(false);
    const approved = [];
    for await (const chunk of tool.runStream(createToolContext({ toolConfirmation: { confirmed: true } }), { amount: 1 }))
      approved.push(chunk);
    expect(approved).toEqual(['sent']);
  });
});

describe('HC-1 … HC-10 end to end', () => {
  async function requestConfirmation() {
    const { tool, calls } = transferTool(true);
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'transfer', args: { amount: 100 }, id: 'call-1' }]),
      textResponse('The transfer went through.'),
    ]);
    const chat = await session(new LlmAgent({ name: 'bank', model, tools: [tool] }));
    const turn1 = await chat.send('Send 100 to Bob.');
    return { ...chat, calls, model, turn1 };
  }

  function reply(events: Event[], response: Record<string, unknown>) {
    const request = getFunctionCalls(events.at(-1)!)[0]!;
    expect(request.name).toBe(REQUEST_CONFIRMATION_FUNCTION);
    return createUserContent([{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION_FUNCTION, response } }]);
  }

  it('HC-4/HC-6: the first turn ends with the error response, then the confirmation request', async () => {
    const { turn1, calls, model } = await requestConfirmation();
    expect(turn1).toHaveLength(3);
    const [call, response, request] = turn1 as [Event, Event, Event];
    expect(getFunctionCalls(call)[0]!.id).toBe('call-1');
    expect(getFunctionResponses(response)).toEqual([{ id: 'call-1', name: 'transfer', response: { error: REQUIRED } }]);
    expect(response.actions.requestedToolConfirmations).toEqual({ 'call-1': { hint: HINT, confirmed: false } });
    const confirmationCall = getFunctionCalls(request)[0]!;
    expect(confirmationCall.name).toBe(REQUEST_CONFIRMATION_FUNCTION);
    expect(confirmationCall.args).toMatchObject({
      originalFunctionCall: { id: 'call-1', name: 'transfer', args: { amount: 100 } },
      toolConfirmation: { hint: HINT, confirmed: false },
    });
    expect(request.longRunningToolIds).toEqual([confirmationCall.id]);
    expect(calls).toEqual([]);
    expect(model.requests).toHaveLength(1);
  });

  it('HC-10: an approval runs the original call with the payload, and the model answers', async () => {
    const { turn1, send, calls, model } = await requestConfirmation();
    const turn2 = await send(reply(turn1, { confirmed: true, payload: { approver: 'ada' } }));
    expect(calls).toEqual([{ amount: 100, confirmation: { confirmed: true, payload: { approver: 'ada' } } }]);
    // The first event marks the call as started (#10); the next answers it.
    expect(turn2[0]!.actions.startedToolCalls).toEqual(['call-1']);
    expect(getFunctionResponses(turn2[1]!)).toEqual([{ id: 'call-1', name: 'transfer', response: { sent: 100 } }]);
    expect(turn2.at(-1)!.content!.parts![0]!.text).toBe('The transfer went through.');
    expect(model.requests).toHaveLength(2);
  });

  it('HC-9: a rejection answers the original call with the rejection, and the model answers', async () => {
    const { turn1, send, calls } = await requestConfirmation();
    const turn2 = await send(reply(turn1, { confirmed: false }));
    expect(calls).toEqual([]);
    // The first event marks the call as started (#10); the next answers it.
    expect(turn2[0]!.actions.startedToolCalls).toEqual(['call-1']);
    expect(getFunctionResponses(turn2[1]!)).toEqual([{ id: 'call-1', name: 'transfer', response: { error: REJECTED } }]);
    expect(turn2.at(-1)!.content!.parts![0]!.text).toBe('The transfer went through.');
  });

  it('HC-7: the ADK web reply format (one "response" key holding JSON) is accepted too', async () => {
    const { turn1, runner, calls } = await requestConfirmation();
    await collect(
      runner.runAsync({
        userId: 'u',
        sessionId: 's',
        newMessage: reply(turn1, { response: JSON.stringify({ confirmed: true }) }),
      }),
    );
    expect(calls).toEqual([{ amount: 100, confirmation: { confirmed: true } }]);
  });
});
