// #23 point 16, AT-3 "every key must be a declared property": agentTool refuses arguments its
// input schema does not declare, with an error response the parent model sees, before the child
// runs. Bad input tried: an extra key, an own `__proto__` key (as JSON.parse makes it), extra keys
// next to valid ones in parallel calls, a workflow agent (its first sub-agent's schema is declared
// and now also checked); a schema that allows more (additionalProperties: true) is honoured.
import { LlmAgent, SequentialAgent, getFunctionResponses } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { agentTool } from '../src/index.js';
import { complete, runnerFor, send } from './support.js';

const input = Type.Object({ city: Type.String(), days: Type.Integer({ minimum: 1 }) });

async function callPlanner(args: Record<string, unknown>[], schema: typeof input = input) {
  const childModel = new ScriptedModel(args.map(() => textResponse('planned')));
  const planner = new LlmAgent({ name: 'planner', model: childModel, inputSchema: schema });
  const rootModel = new ScriptedModel([functionCallResponse(args.map((a, i) => ({ name: 'planner', args: a, id: `c${i}` }))), textResponse('done')]);
  const root = new LlmAgent({ name: 'root', model: rootModel, tools: [agentTool(planner)], maxToolConcurrency: 1 });
  const events = complete(await send(runnerFor(root), 'plan'));
  const responses = events.flatMap(getFunctionResponses).map((r) => r.response);
  return { responses, childModel, rootModel };
}

describe('AT-3 (#23 point 16): arguments outside the input schema are refused', () => {
  it('an undeclared key is an error the parent model sees, and the child never runs', async () => {
    const { responses, childModel, rootModel } = await callPlanner([{ city: 'Lisbon', days: 3, role: 'admin' }]);
    expect(responses).toEqual([{ error: `argument validation failed for agent planner: input arg: '"role"' does not exist in schema properties` }]);
    expect(childModel.requests).toHaveLength(0);
    // The refusal reached the parent's next request.
    const last = rootModel.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse!.response;
    expect(last).toEqual(responses[0]);
  });

  it('an own __proto__ key (from JSON) is refused, not merged into the child\'s message', async () => {
    const hostile = JSON.parse('{"city":"Lisbon","days":3,"__proto__":{"admin":true}}') as Record<string, unknown>;
    const { responses, childModel } = await callPlanner([hostile, { city: 'Porto', days: 1 }]);
    expect(responses).toEqual([
      { error: `argument validation failed for agent planner: input arg: '"__proto__"' does not exist in schema properties` },
      { result: 'planned' },
    ]);
    expect(childModel.requests).toHaveLength(1);
    expect(childModel.requests[0]!.contents.at(-1)!.parts![0]!.text).toBe('{"city":"Porto","days":1}');
  });

  it('a schema that allows more keys (additionalProperties: true) passes them on', async () => {
    const open = Type.Object({ city: Type.String(), days: Type.Integer({ minimum: 1 }) }, { additionalProperties: true }) as unknown as typeof input;
    const { responses, childModel } = await callPlanner([{ city: 'Lisbon', days: 2, note: 'by train' }], open);
    expect(responses).toEqual([{ result: 'planned' }]);
    expect(childModel.requests[0]!.contents.at(-1)!.parts![0]!.text).toBe('{"city":"Lisbon","days":2,"note":"by train"}');
  });

  it('a workflow agent is checked against the schema it declares (its first sub-agent\'s), and gets the arguments as JSON', async () => {
    const childModel = new ScriptedModel([textResponse('planned')]);
    const pipeline = new SequentialAgent({ name: 'pipeline', subAgents: [new LlmAgent({ name: 'first', model: childModel, inputSchema: input })] });
    const tool = agentTool(pipeline);
    expect(tool.declaration()!.parametersJsonSchema).toEqual(JSON.parse(JSON.stringify(input)));
    const rootModel = new ScriptedModel([
      functionCallResponse([
        { name: 'pipeline', args: { city: 'Lisbon', days: 3, extra: 1 }, id: 'bad' },
        { name: 'pipeline', args: { city: 'Lisbon', days: 3 }, id: 'ok' },
      ]),
      textResponse('done'),
    ]);
    const root = new LlmAgent({ name: 'root', model: rootModel, tools: [tool], maxToolConcurrency: 1 });
    const responses = complete(await send(runnerFor(root), 'plan')).flatMap(getFunctionResponses).map((r) => r.response);
    expect(responses).toEqual([
      { error: `argument validation failed for agent pipeline: input arg: '"extra"' does not exist in schema properties` },
      { result: 'planned' },
    ]);
    expect(childModel.requests[0]!.contents.at(-1)!.parts![0]!.text).toBe('{"city":"Lisbon","days":3}');
  });
});
