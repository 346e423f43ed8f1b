// What otelPlugin costs when no OpenTelemetry SDK is installed (issue #20: none that a benchmark
// can see beyond the API's no-op): one InMemoryRunner turn where a ScriptedModel calls a tool
// and then answers (two model calls, one tool call), without the plugin and with it, measured in
// alternating rounds so that both see the same machine load.
import { createUserContent, InMemoryRunner, LlmAgent } from '@adkit/flow';
import { functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import { otelPlugin } from '@adkit/otel';
import Type from 'typebox';
import { median } from './measure.mjs';

export const title = 'otel: a runner turn with otelPlugin and no SDK installed, vs without the plugin';

const WARMUP = 300;
const ROUNDS = 7;
const TURNS_PER_ROUND = 400;

/** A runner over a fresh script and fresh sessions; `turn(i)` runs turn i and checks its answer. */
async function setup(plugins) {
  const turns = WARMUP + ROUNDS * TURNS_PER_ROUND;
  const steps = [];
  for (let i = 0; i < turns; i++)
    steps.push(functionCallResponse([{ name: 'add', args: { a: i, b: 1 } }]), textResponse(`the sum is ${i + 1}`));
  const add = functionTool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
    execute: async ({ a, b }) => ({ sum: a + b }),
  });
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'calculator', model: new ScriptedModel(steps), tools: [add] }), appName: 'bench', plugins });
  for (let i = 0; i < turns; i++) await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId: `s${i}` });
  return async (i) => {
    let last;
    for await (const event of runner.runAsync({ userId: 'u', sessionId: `s${i}`, newMessage: createUserContent('add') })) last = event;
    if (last?.content?.parts?.[0]?.text !== `the sum is ${i + 1}`) throw new Error(`turn ${i} ended unexpectedly`);
  };
}

/** Median ns per call of each operation, measured in alternating rounds (a GC before each). */
async function interleaved(operations) {
  const calls = operations.map(() => 0);
  for (const [k, operation] of operations.entries()) while (calls[k] < WARMUP) await operation(calls[k]++);
  const samples = operations.map(() => []);
  for (let round = 0; round < ROUNDS; round++)
    for (const [k, operation] of operations.entries()) {
      globalThis.gc?.();
      const start = process.hrtime.bigint();
      for (let i = 0; i < TURNS_PER_ROUND; i++) await operation(calls[k]++);
      samples[k].push(Number(process.hrtime.bigint() - start) / TURNS_PER_ROUND);
    }
  return samples.map(median);
}

export async function run() {
  const [without, withPlugin] = await interleaved([await setup([]), await setup([otelPlugin({ captureContent: true })])]);
  return [
    { case: 'runner turn without a plugin (model call, tool, model answer)', ns: without },
    {
      case: 'the same turn with otelPlugin({captureContent: true}), no SDK installed',
      ns: withPlugin,
      ratio: withPlugin / without,
      note: 'the API no-op: the run span is not recorded, so nothing else is followed',
    },
  ];
}
