// #26, AT-2/AT-3/AT-6: an agent's inputSchema and outputSchema in zod 4 (any Standard JSON Schema):
// declared from zod's JSON Schema (no $schema), the child gets the validated input (defaults
// filled in), the parent gets the validated output (transforms applied), problems read
// `path: message`.
import { getFunctionResponses, LlmAgent } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool } from '../src/index.js';
import { complete, runnerFor, send } from './support.js';

describe('agentTool with zod schemas (#26)', () => {
  const input = z.object({ city: z.string(), days: z.number().int().min(1).default(2) });
  const output = z.object({ plan: z.string(), stops: z.array(z.string()).transform((stops) => stops.length) });

  it('AT-2: declares zod\'s JSON Schema of the input, without $schema', () => {
    const tool = agentTool(new LlmAgent({ name: 'planner', inputSchema: input }));
    expect(tool.declaration()!.parametersJsonSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string' }, days: { default: 2, type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
      required: ['city'],
    });
  });

  it('AT-3/AT-6: the child gets the validated input; the parent gets the validated output', async () => {
    const childModel = new ScriptedModel([textResponse('{"plan":"2 days","stops":["Belém","Alfama"]}'), textResponse('{"plan":7,"stops":[]}')]);
    const planner = new LlmAgent({ name: 'planner', model: childModel, inputSchema: input, outputSchema: output });
    const rootModel = new ScriptedModel([
      functionCallResponse([
        { name: 'planner', args: { city: 'Lisbon' }, id: 'ok' },
        { name: 'planner', args: { city: 'Lisbon', days: 0 }, id: 'bad-input' },
        { name: 'planner', args: { city: 'Faro' }, id: 'bad-output' },
      ]),
      textResponse('done'),
    ]);
    const root = new LlmAgent({ name: 'root', model: rootModel, tools: [agentTool(planner)], maxToolConcurrency: 1 });
    const events = complete(await send(runnerFor(root), 'plan'));
    const responses = Object.fromEntries(events.flatMap(getFunctionResponses).map((r) => [r.id, r.response]));
    expect(childModel.requests[0]!.contents.at(-1)!.parts![0]!.text).toBe('{"city":"Lisbon","days":2}');
    expect(responses.ok).toEqual({ plan: '2 days', stops: 2 });
    expect(responses['bad-input']).toEqual({ error: 'argument validation failed for agent planner: days: Too small: expected number to be >=1' });
    expect(responses['bad-output']).toEqual({ error: 'output validation failed for sub-agent planner: plan: Invalid input: expected string, received number' });
    expect(childModel.requests).toHaveLength(2);
  });
});
