// #30 point 1: a function tool returns parts beside its JSON result with `withResponseParts`; the
// parts survive the result's conversion (`{result}` for an array, a `toJSON()` value, a Standard
// Schema response's output: each a new object) and reach the function response, with and without
// a response schema.
import { InMemoryRunner, LlmAgent, createUserContent, getFunctionResponses, responsePartsOf, withResponseParts, type Event } from '@adkit/flow';
import { ScriptedModel, createToolContext, functionCallResponse, textResponse } from '@adkit/flow/testing';
import Type from 'typebox';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { functionTool } from '../src/index.js';

const image = { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } };

it.each([
  ['without a response schema', undefined],
  ['with a response schema (the result is converted)', Type.Object({ title: Type.String(), rows: Type.Integer() })],
])('#30: parts beside the result reach the function response, %s', async (_label, response) => {
  const chart = functionTool({
    name: 'chart',
    description: 'Draws the sales chart.',
    parameters: Type.Object({ year: Type.Integer() }),
    ...(response ? { response } : {}),
    execute: async ({ year }) => withResponseParts({ title: `Sales ${year}`, rows: 12 }, [image]),
  });
  const model = new ScriptedModel([functionCallResponse([{ name: 'chart', args: { year: 2026 }, id: 'c1' }]), textResponse('ok')]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'root', model, tools: [chart] }), autoCreateSession: true });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('chart') })) events.push(event);
  expect(events.flatMap((event) => getFunctionResponses(event))).toEqual([
    { id: 'c1', name: 'chart', response: { title: 'Sales 2026', rows: 12 }, parts: [image] },
  ]);
});

it.each([
  ['an array result, wrapped as {result}', () => withResponseParts(['q1', 'q2'], [image]), undefined, { result: ['q1', 'q2'] }],
  ['a result with toJSON(), converted', () => withResponseParts({ toJSON: () => ({ title: 'Sales' }) }, [image]), undefined, { title: 'Sales' }],
  ['a zod response schema (its output is a new object)', () => withResponseParts({ title: 'Sales' }, [image]), z.object({ title: z.string(), rows: z.number().default(0) }), { title: 'Sales', rows: 0 }],
])('#30: parts beside %s stay on what the tool answers', async (_label, result, response, expected) => {
  const tool = functionTool({ name: 'chart', description: 'Draws.', parameters: Type.Object({}), ...(response ? { response } : {}), execute: async () => result() as never });
  for (let call = 0; call < 2; call++) {
    const answer = await tool.run(createToolContext(), {});
    expect(answer).toEqual(expected);
    expect(responsePartsOf(answer)).toEqual([image]);
  }
});

it('#30: toModelOutput: the model is sent the mapped result, the event keeps the result; a non-function is a ConfigError', async () => {
  const lookup = functionTool({
    name: 'lookup',
    description: 'Finds a customer.',
    parameters: Type.Object({ id: Type.String() }),
    execute: ({ id }) => ({ id, name: 'Ada', card: '4111 1111 1111 1111' }),
    toModelOutput: (result) => ({ ...result, card: '**** 1111' }),
  });
  const model = new ScriptedModel([functionCallResponse([{ name: 'lookup', args: { id: 'c-7' }, id: 'c1' }]), textResponse('ok')]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'root', model, tools: [lookup] }), autoCreateSession: true });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('who') })) events.push(event);
  expect(events.flatMap((event) => getFunctionResponses(event))[0]!.response).toEqual({ id: 'c-7', name: 'Ada', card: '4111 1111 1111 1111' });
  expect(model.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse!.response).toEqual({ id: 'c-7', name: 'Ada', card: '**** 1111' });
  expect(() =>
    functionTool({ name: 'x', description: 'x', parameters: Type.Object({}), execute: () => ({}), toModelOutput: 'redact' as never }),
  ).toThrow('functionTool "x": toModelOutput must be a function (result, ctx) => what the model is sent; leave it out to send the result.');
});

it('#30: the README example (test/salesChart.ts, verbatim): the event keeps the customer, the model gets the numbers and the chart', async () => {
  const { readFileSync } = await import('node:fs');
  const { codeBlocks } = await import('@adkit/test-support');
  const { salesChart } = await import('./salesChart.js');
  expect(codeBlocks(readFileSync(new URL('../README.md', import.meta.url), 'utf8'), 'ts')).toContain(readFileSync(new URL('./salesChart.ts', import.meta.url), 'utf8'));
  const model = new ScriptedModel([functionCallResponse([{ name: 'sales_chart', args: { year: 2026 }, id: 'c1' }]), textResponse('ok')]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'root', model, tools: [salesChart] }), autoCreateSession: true });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('sales') })) events.push(event);
  const stored = events.flatMap((event) => getFunctionResponses(event))[0]!;
  expect(stored.response).toEqual({ year: 2026, months: [3, 5, 8], customer: 'ACME GmbH' });
  const sent = model.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse!;
  expect(sent.response).toEqual({ year: 2026, months: [3, 5, 8] });
  expect(sent.parts).toHaveLength(1);
});
