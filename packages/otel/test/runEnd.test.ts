// Every span ends, however the run ends. Bad input tried: a consumer that stops iterating while two
// tools run (they never finish on their own) and while a model streams, and a caller that aborts
// its signal mid-run. The runner gives neither case an after-run callback; the plugin ends the
// spans when the run's signal aborts (STYLE rule 8: leaving a `for await` releases everything).
import { LlmAgent, createUserContent, type Tool } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { tracedRunner } from './support/tracing.js';

/** A tool that reports progress, then waits until its call is cancelled. */
function hangingTool(name: string): Tool {
  return functionTool({
    name,
    description: 'Never finishes by itself.',
    parameters: Type.Object({}),
    execute: async (_args, ctx) => {
      ctx.reportProgress({ message: `${name} started` });
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      return { cancelled: true };
    },
  });
}

function setup() {
  const model = new ScriptedModel([
    functionCallResponse([
      { name: 'hang_a', id: 'a' },
      { name: 'hang_b', id: 'b' },
    ]),
  ]);
  return tracedRunner(new LlmAgent({ name: 'a', model, tools: [hangingTool('hang_a'), hangingTool('hang_b')] }));
}

describe('the end of a run', () => {
  it('a consumer that stops iterating while tools run ends every span, as stopped', async () => {
    const { tracing, runner } = setup();
    let progress = 0;
    for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go') }))
      if (event.toolProgress && ++progress === 2) break;

    expect(tracing.started.map((span) => span.name).sort()).toEqual(['chat scripted-model', 'execute_tool hang_a', 'execute_tool hang_b', 'invoke_agent a']);
    expect(tracing.started.filter((span) => !span.ended).map((span) => span.name)).toEqual([]);
    expect(tracing.span('invoke_agent a').attributes['adkit.outcome']).toBe('stopped');
    expect(tracing.span('execute_tool hang_a').attributes['adkit.outcome']).toBe('stopped');
    expect(tracing.span('execute_tool hang_b').attributes['adkit.outcome']).toBe('stopped');
    expect(tracing.span('chat scripted-model').attributes['adkit.outcome']).toBe('completed');
  });

  it('a consumer that stops in the middle of a streamed model answer ends the model span too', async () => {
    const model = new ScriptedModel([[textResponse('Once '), textResponse('upon '), textResponse('a time.')]]);
    const { tracing, runner } = tracedRunner(new LlmAgent({ name: 'a', model }));
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: 's',
      newMessage: createUserContent('tell a story'),
      runConfig: { streamingMode: 'sse' },
    }))
      if (event.partial) break;

    expect(tracing.started).toHaveLength(2);
    expect(tracing.started.every((span) => span.ended)).toBe(true);
    expect(tracing.span('chat scripted-model').attributes['adkit.outcome']).toBe('stopped');
  });

  it('a caller that aborts mid-run ends every span, as cancelled', async () => {
    const { tracing, runner } = setup();
    const controller = new AbortController();
    let progress = 0;
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: 's',
      newMessage: createUserContent('go'),
      signal: controller.signal,
    }))
      if (event.toolProgress && ++progress === 2) controller.abort();

    expect(tracing.started).toHaveLength(4);
    expect(tracing.started.filter((span) => !span.ended)).toEqual([]);
    expect(tracing.span('invoke_agent a').attributes['adkit.outcome']).toBe('cancelled');
    expect(tracing.span('execute_tool hang_a').attributes['adkit.outcome']).toBe('cancelled');
  });
});
