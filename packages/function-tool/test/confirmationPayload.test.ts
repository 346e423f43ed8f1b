// #23 point 8: `requireConfirmation` takes a payload schema, so an approval whose payload does not
// match (`{"days_approved": "three"}`) is refused with a clear error the model and the client see,
// and never reaches the tool; the tool's own hint and payload ride on the request. Bad input
// tried: a string where an integer is expected, a missing payload, extra keys in place of the
// declared one, a `__proto__` key, a payload nested 10,000 deep, bad option shapes.
import { createUserContent, getFunctionCalls, getFunctionResponses, LlmAgent, REQUEST_CONFIRMATION_FUNCTION, type Event } from '@adkit/flow';
import { createToolContext, functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { ConfigError } from '@adkit/flow';
import { isToolError, type ToolError } from '@adkit/tool';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { functionTool, streamingFunctionTool } from '../src/index.js';
import { session } from './support.js';

const payloadSchema = Type.Object({ days_approved: Type.Integer({ minimum: 0 }) });

function vacationTool() {
  const granted: unknown[] = [];
  const tool = functionTool({
    name: 'request_vacation_days',
    description: 'Asks the manager for vacation days.',
    parameters: Type.Object({ days: Type.Integer({ minimum: 1 }) }),
    requireConfirmation: {
      hint: ({ days }) => `Approve ${days} vacation days?`,
      payload: ({ days }) => ({ days_approved: days }),
      payloadSchema,
    },
    execute: ({ days }, ctx) => {
      const { days_approved } = ctx.toolConfirmation!.payload as { days_approved: number };
      granted.push(days_approved);
      return { days_requested: days, days_approved: Math.min(days, days_approved) };
    },
  });
  return { tool, granted };
}

async function refusal(run: Promise<unknown>): Promise<ToolError> {
  const error = await run.then(() => undefined, (thrown: unknown) => thrown);
  expect(isToolError(error)).toBe(true);
  return error as ToolError;
}

const approved = (payload: unknown) =>
  createToolContext({
    functionCallId: 'c1',
    functionCall: { id: 'c1', name: 'request_vacation_days', args: { days: 5 } },
    toolConfirmation: { confirmed: true, payload },
  });

describe('#23 point 8: confirmation payload schema', () => {
  it('the request carries the tool\'s hint and payload', async () => {
    const { tool } = vacationTool();
    const ctx = createToolContext({ functionCallId: 'c1', functionCall: { id: 'c1', name: 'request_vacation_days', args: { days: 5 } } });
    const error = await refusal(tool.run(ctx, { days: 5 }));
    expect(error.code).toBe('CONFIRMATION_REQUIRED');
    expect(ctx.actions.requestedToolConfirmations).toEqual({
      c1: { hint: 'Approve 5 vacation days?', confirmed: false, payload: { days_approved: 5 } },
    });
  });

  it('{"days_approved": "three"} is refused with every problem named; the tool never runs', async () => {
    const { tool, granted } = vacationTool();
    const error = await refusal(tool.run(approved({ days_approved: 'three' }), { days: 5 }));
    expect(error.code).toBe('INVALID_CONFIRMATION_PAYLOAD');
    expect(error.message).toBe(
      'error tool "request_vacation_days" approval refused: its payload is invalid (days_approved: must be integer). The call was not run; ask the user to approve it again with a valid payload.',
    );
    expect(error.problems).toEqual(['days_approved: must be integer']);
    expect(granted).toEqual([]);
  });

  it('a missing payload, a wrong key, a __proto__ key and a 10,000-deep payload are refused too; a valid one runs', async () => {
    const { tool, granted } = vacationTool();
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) deep = { days_approved: deep };
    for (const payload of [undefined, { days: 3 }, JSON.parse('{"__proto__": {"days_approved": 3}}'), deep, { days_approved: -1 }])
      expect((await refusal(tool.run(approved(payload), { days: 5 }))).code).toBe('INVALID_CONFIRMATION_PAYLOAD');
    expect(granted).toEqual([]);
    expect(await tool.run(approved({ days_approved: 3 }), { days: 5 })).toEqual({ days_requested: 5, days_approved: 3 });
    expect(granted).toEqual([3]);
  });

  it('a rejection is not checked: it answers "rejected" whatever the payload', async () => {
    const { tool } = vacationTool();
    const ctx = createToolContext({ functionCallId: 'c1', toolConfirmation: { confirmed: false, payload: 'three' } });
    expect((await refusal(tool.run(ctx, { days: 5 }))).code).toBe('CALL_REJECTED');
  });

  it('end to end: the client sees the refusal in the call\'s response, the model is told, the tool never ran', async () => {
    const { tool, granted } = vacationTool();
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'request_vacation_days', args: { days: 5 }, id: 'v1' }]),
      textResponse('The approval could not be used.'),
    ]);
    const s = await session(new LlmAgent({ name: 'hr', model, tools: [tool] }));
    const paused = await s.send(createUserContent('5 days off please'));
    const request = paused.flatMap(getFunctionCalls).find((c) => c.name === REQUEST_CONFIRMATION_FUNCTION)!;
    expect(request.args!.toolConfirmation).toEqual({ hint: 'Approve 5 vacation days?', confirmed: false, payload: { days_approved: 5 } });
    const resumed: Event[] = await s.send({
      role: 'user',
      parts: [{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION_FUNCTION, response: { confirmed: true, payload: { days_approved: 'three' } } } }],
    });
    expect(resumed.flatMap(getFunctionResponses).find((r) => r.id === 'v1')!.response).toEqual({
      error:
        'error tool "request_vacation_days" approval refused: its payload is invalid (days_approved: must be integer). The call was not run; ask the user to approve it again with a valid payload.',
    });
    expect(granted).toEqual([]);
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe('The approval could not be used.');
  });

  it('streamingFunctionTool checks the payload before its first chunk', async () => {
    const chunks: string[] = [];
    const tool = streamingFunctionTool({
      name: 'request_vacation_days',
      description: 'd',
      parameters: Type.Object({ days: Type.Integer() }),
      requireConfirmation: { payloadSchema },
      async *execute() {
        chunks.push('started');
        yield 'ok';
      },
    });
    const iterate = async () => {
      for await (const chunk of tool.runStream(approved({ days_approved: 'three' }), { days: 5 })) chunks.push(chunk);
    };
    expect((await refusal(iterate())).code).toBe('INVALID_CONFIRMATION_PAYLOAD');
    expect(chunks).toEqual([]);
  });

  it('when decides per call; without a payload schema any payload passes', async () => {
    const tool = functionTool({
      name: 'pay',
      description: 'd',
      parameters: Type.Object({ amount: Type.Number() }),
      requireConfirmation: { when: ({ amount }) => amount > 100 },
      execute: ({ amount }) => ({ paid: amount }),
    });
    expect(await tool.run(createToolContext({ functionCallId: 'c' }), { amount: 5 })).toEqual({ paid: 5 });
    expect((await refusal(tool.run(createToolContext({ functionCallId: 'c' }), { amount: 500 }))).code).toBe('CONFIRMATION_REQUIRED');
    expect(await tool.run(createToolContext({ functionCallId: 'c', toolConfirmation: { confirmed: true, payload: 'x' } }), { amount: 500 })).toEqual({ paid: 500 });
  });

  it('bad option shapes are construction errors naming the fix', () => {
    const make = (requireConfirmation: unknown) => () =>
      functionTool({ name: 'pay', description: 'd', parameters: Type.Object({}), execute: () => ({}), requireConfirmation: requireConfirmation as never });
    expect(make(null)).toThrow(ConfigError);
    expect(make(null)).toThrow(
      'functionTool "pay": requireConfirmation must be true, false, a function (args, ctx) => boolean | Promise<boolean>, or {when?, hint?, payload?, payloadSchema?}, got null.',
    );
    expect(make({ when: 'yes' })).toThrow('functionTool "pay": requireConfirmation.when must be true, false or a function (args, ctx) => boolean, got string.');
    expect(make({ hint: 'Approve?' })).toThrow("functionTool \"pay\": requireConfirmation.hint must be a function of the call's arguments, got string.");
    expect(make({ payloadSchema: 'int' })).toThrow(
      'functionTool "pay": requireConfirmation.payloadSchema must be a TypeBox schema such as Type.Object({...}) or a Standard JSON Schema such as z.object({...}), got string.',
    );
    expect(make({ payloadSchema: Type.Object({ code: Type.String({ pattern: '(' }) }) })).toThrow(
      'functionTool "pay": requireConfirmation.payloadSchema does not compile: Invalid regular expression: /(/u: Unterminated group',
    );
  });
});
