// BT-7: exit_loop. Bad input tried: arguments on a tool that takes none.
import { getFunctionCalls, getFunctionResponses, LlmAgent, LoopAgent, type LlmRequest } from '@adkit/flow';
import { createToolContext, functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { exitLoopTool, isToolError } from '../src/index.js';
import { runOnce } from './support.js';

describe('exit_loop (BT-7)', () => {
  it('BT-7: name, description and strict empty arguments', () => {
    expect(exitLoopTool.name).toBe('exit_loop');
    expect(exitLoopTool.description).toBe('Exits the loop.\n\nCall this function only when you are instructed to do so.\n');
    expect(exitLoopTool.declaration()).toEqual({
      name: 'exit_loop',
      description: 'Exits the loop.\n\nCall this function only when you are instructed to do so.\n',
      parametersJsonSchema: { type: 'object', properties: {}, additionalProperties: false },
    });
    expect(exitLoopTool.isLongRunning).toBe(false);
  });

  it('#24: the one shared declaration is frozen through, so no agent\'s step can change it for the others', () => {
    const declaration = exitLoopTool.declaration()!;
    expect(exitLoopTool.declaration()).toBe(declaration);
    expect(Object.isFrozen(declaration)).toBe(true);
    expect(Object.isFrozen(declaration.parametersJsonSchema)).toBe(true);
    expect(Object.isFrozen((declaration.parametersJsonSchema as { properties: object }).properties)).toBe(true);
    expect(() => {
      (declaration as { description?: string }).description = 'changed';
    }).toThrow(TypeError);
  });

  it('BT-7: sets escalate and skipSummarization and answers {}', async () => {
    const ctx = createToolContext();
    expect(await exitLoopTool.run(ctx, {})).toEqual({});
    expect(ctx.actions.escalate).toBe(true);
    expect(ctx.actions.skipSummarization).toBe(true);
    const nullArgs = createToolContext();
    expect(await exitLoopTool.run(nullArgs, null as unknown as Record<string, unknown>)).toEqual({});
  });

  it('BT-7: arguments are refused, and nothing is set', async () => {
    const ctx = createToolContext();
    const error = await exitLoopTool.run(ctx, { reason: 'done' }).catch((e: unknown) => e);
    expect(isToolError(error)).toBe(true);
    expect((error as Error).message).toBe(
      'Invalid arguments for tool "exit_loop": reason: is not allowed. The tool takes no arguments; call it with {}.',
    );
    expect(ctx.actions.escalate).toBeUndefined();
  });

  it('BT-7: a LoopAgent stops when its sub-agent calls exit_loop; the LLM turn ends without summarising', async () => {
    const writer = new ScriptedModel([
      textResponse('draft 1'),
      textResponse('draft 2'),
      functionCallResponse([{ name: 'exit_loop' }]),
    ]);
    const critic = new ScriptedModel([textResponse('needs work'), textResponse('better, one more pass')]);
    const loop = new LoopAgent({
      name: 'refine',
      maxIterations: 10,
      subAgents: [
        new LlmAgent({ name: 'writer', model: writer, tools: [exitLoopTool], instruction: 'Call exit_loop when the critic is happy.' }),
        new LlmAgent({ name: 'critic', model: critic }),
      ],
    });
    const { events } = await runOnce(loop, 'write a haiku');
    expect(events.map((e) => `${e.author}: ${e.content?.parts?.[0]?.text ?? getFunctionCalls(e)[0]?.name ?? getFunctionResponses(e)[0]?.name}`)).toEqual([
      'writer: draft 1',
      'critic: needs work',
      'writer: draft 2',
      'critic: better, one more pass',
      'writer: exit_loop',
      'writer: exit_loop',
    ]);
    const last = events.at(-1)!;
    expect(getFunctionResponses(last)[0]!.response).toEqual({});
    expect(last.actions).toMatchObject({ escalate: true, skipSummarization: true });
    // Every script step was used exactly once: no summarising call, no further round.
    expect([writer.remaining, critic.remaining]).toEqual([0, 0]);
    expect((writer.requests[0] as LlmRequest).config.tools![0]!.functionDeclarations!.map((d) => d.name)).toEqual(['exit_loop']);
  });
});
