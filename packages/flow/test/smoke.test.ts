import { describe, expect, it } from 'vitest';
import { LlmAgent, getFunctionResponses } from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool, runOnce } from './support.js';

describe('smoke', () => {
  it('runs a tool and answers', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'add', args: { a: 1, b: 2 } }]), textResponse('3')]);
    const agent = new LlmAgent({ name: 'calc', model, tools: [rawTool('add', (a) => ({ sum: (a.a as number) + (a.b as number) }))] });
    const { events } = await runOnce(agent, 'add 1 and 2');
    expect(events.map((e) => e.author)).toEqual(['calc', 'calc', 'calc']);
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({ sum: 3 });
    expect(model.requests).toHaveLength(2);
  });
});
