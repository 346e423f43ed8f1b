// FT-5: what a handler's return value becomes, and how a thrown error reaches the model.
// Bad input tried: a result missing a field of the response schema, a field of the wrong type, a
// scalar where the response schema wants an object, a thrown Error, a thrown string, a BigInt.
import { getFunctionResponses, LlmAgent } from '@adkit/flow';
import { createToolContext, functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { isToolError, type ToolError } from '@adkit/tool';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { functionTool } from '../src/index.js';
import { session } from './support.js';

const ctx = createToolContext();
const returning = (value: unknown, options: { isLongRunning?: boolean } = {}) =>
  functionTool({ name: 'answer', description: 'Answers.', parameters: Type.Object({}), execute: () => value, ...options });

describe('FT-5: results', () => {
  it.each([
    ['an object passes unchanged', { temp: 21, unit: 'C' }, { temp: 21, unit: 'C' }],
    ['an empty object', {}, {}],
    ['a string is wrapped', 'sunny', { result: 'sunny' }],
    ['an empty string is wrapped', '', { result: '' }],
    ['a number is wrapped', 42, { result: 42 }],
    ['zero is wrapped', 0, { result: 0 }],
    ['a boolean is wrapped', false, { result: false }],
    ['an array is wrapped', [1, 'two'], { result: [1, 'two'] }],
    ['a Date becomes its JSON string, wrapped', new Date('2026-01-02T03:04:05.000Z'), { result: '2026-01-02T03:04:05.000Z' }],
    ['undefined is no result', undefined, undefined],
    ['null is no result', null, undefined],
  ])('FT-5: %s', async (_label, value, expected) => {
    expect(await returning(value).run(ctx, {})).toEqual(expected);
  });

  it('FT-5: an async handler is awaited', async () => {
    const tool = functionTool({ name: 'later', description: 'd', parameters: Type.Object({}), execute: async () => 'done' });
    expect(await tool.run(ctx, {})).toEqual({ result: 'done' });
  });

  it('FT-5: results are checked against the response schema; a mismatch names the field', async () => {
    const response = Type.Object({ celsius: Type.Number(), city: Type.String() });
    const tool = (value: unknown) =>
      functionTool({ name: 'weather', description: 'd', parameters: Type.Object({}), response, execute: () => value as never });
    expect(await tool({ celsius: 20, city: 'Oslo' }).run(ctx, {})).toEqual({ celsius: 20, city: 'Oslo' });
    const error = (await tool({ celsius: 'warm' }).run(ctx, {}).catch((e: unknown) => e)) as ToolError;
    expect(isToolError(error)).toBe(true);
    expect(error.code).toBe('INVALID_RESULT');
    expect(error.message).toBe(
      'Tool "weather" returned a result that does not match its response schema: city: is required; celsius: must be number.',
    );
    expect(((await tool(7).run(ctx, {}).catch((e: unknown) => e)) as Error).message).toBe(
      'Tool "weather" returned a result that does not match its response schema: (root): must be object.',
    );
  });

  it('FT-5 (e)/(f): a scalar that matches a scalar response schema is wrapped', async () => {
    const tool = functionTool({ name: 'count', description: 'd', parameters: Type.Object({}), response: Type.Integer(), execute: () => 3 });
    expect(await tool.run(ctx, {})).toEqual({ result: 3 });
    expect(tool.declaration().responseJsonSchema).toEqual({ type: 'integer' });
  });

  it('FT-5/FL-13: handler errors and non-Error throws reach the model as {error}; the run goes on', async () => {
    const failing = functionTool({
      name: 'fail',
      description: 'Fails.',
      parameters: Type.Object({ how: Type.String() }),
      execute: ({ how }) => {
        if (how === 'error') throw new Error('the backend is down');
        if (how === 'string') throw 'no luck';
        return { big: 10n };
      },
    });
    const model = new ScriptedModel([
      functionCallResponse([
        { name: 'fail', args: { how: 'error' }, id: 'a' },
        { name: 'fail', args: { how: 'string' }, id: 'b' },
        { name: 'fail', args: { how: 'bigint' }, id: 'c' },
      ]),
      textResponse('All three failed.'),
    ]);
    const { send } = await session(new LlmAgent({ name: 'agent', model, tools: [failing] }));
    const events = await send('go');
    expect(getFunctionResponses(events[1]!).map((r) => r.response)).toEqual([
      { error: 'the backend is down' },
      { error: 'Tool "fail" failed: no luck' },
      {
        error:
          'Tool "fail" returned a result that is not JSON-serializable: $.big is a BigInt (10n); convert it to a number or a string. Return plain data (objects, arrays, strings, numbers, booleans, null).',
      },
    ]);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('All three failed.');
  });
});
