// What otelPlugin costs when no OpenTelemetry SDK is installed (issue #20: none that a benchmark
// can see beyond the API's no-op). One InMemoryRunner turn where a ScriptedModel calls a tool and
// then answers (two model calls, one tool call): with a plugin whose callbacks all do nothing (the
// baseline: what the runner spends on calling plugins at all), with otelPlugin, and with no plugin,
// measured in alternating rounds so that all see the same machine load; and, for the scale, the
// plugin's own callbacks for such a turn, called directly.
import { createEvent, createUserContent, InMemoryRunner, LlmAgent } from '@adkit/flow';
import { functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import { otelPlugin } from '@adkit/otel';
import Type from 'typebox';
import { betweenRounds, measure, median } from './measure.mjs';

export const title = 'otel: a runner turn with otelPlugin and no SDK installed, vs without the plugin';

const WARMUP = 300;
const ROUNDS = 21;
const TURNS_PER_ROUND = 100;

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

/** Median ns per call of each operation, measured in alternating rounds (a scavenge before each, `betweenRounds`). */
async function interleaved(operations) {
  const calls = operations.map(() => 0);
  for (const [k, operation] of operations.entries()) while (calls[k] < WARMUP) await operation(calls[k]++);
  const samples = operations.map(() => []);
  for (let round = 0; round < ROUNDS; round++)
    for (const [k, operation] of operations.entries()) {
      betweenRounds();
      const start = process.hrtime.bigint();
      for (let i = 0; i < TURNS_PER_ROUND; i++) await operation(calls[k]++);
      samples[k].push(Number(process.hrtime.bigint() - start) / TURNS_PER_ROUND);
    }
  return samples.map(median);
}

/** One turn's worth of the plugin's callbacks (11 calls), with a real invocation context. */
async function pluginCallbacksOfATurn() {
  const plugin = otelPlugin({ captureContent: true });
  let context;
  const probe = { name: 'probe', beforeRunCallback: (args) => void (context = args.context) };
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model: new ScriptedModel([textResponse('hi')]) }), plugins: [probe], autoCreateSession: true });
  for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('hi') }));
  const callback = { invocationId: context.invocationId, agentName: 'a', sessionId: 's', logger: context.logger };
  const toolContext = { ...callback, functionCallId: 'c1', actions: {} };
  const request = { model: 'm', contents: [], config: {} };
  const response = textResponse('hi');
  const event = createEvent({ invocationId: context.invocationId, author: 'a', content: response.content });
  const tool = { name: 'add', description: 'Adds.' };
  return () => {
    plugin.beforeRunCallback({ context });
    for (let i = 0; i < 2; i++) {
      plugin.beforeModelCallback({ context: callback, request });
      plugin.afterModelCallback({ context: callback, request, response });
    }
    plugin.beforeToolCallback({ tool, args: {}, context: toolContext });
    plugin.afterToolCallback({ tool, args: {}, context: toolContext, response: {} });
    for (let i = 0; i < 3; i++) plugin.onEventCallback({ context, event });
    plugin.afterRunCallback({ context });
  };
}

/** A plugin with every callback, each doing nothing. */
function emptyPlugin() {
  const nothing = () => undefined;
  const callbacks = ['beforeRun', 'afterRun', 'onEvent', 'beforeModel', 'afterModel', 'onModelError', 'beforeTool', 'afterTool', 'onToolError'];
  return Object.fromEntries([['name', 'empty'], ...callbacks.map((name) => [`${name}Callback`, nothing])]);
}

export async function run() {
  const [empty, withPlugin, none] = await interleaved([
    await setup([emptyPlugin()]),
    await setup([otelPlugin({ captureContent: true })]),
    await setup([]),
  ]);
  const callbacks = await measure(await pluginCallbacksOfATurn());
  return [
    { case: 'runner turn with a plugin whose callbacks do nothing (model call, tool, model answer)', ns: empty },
    {
      case: 'the same turn with otelPlugin({captureContent: true}), no SDK installed',
      ns: withPlugin,
      ratio: withPlugin / empty,
      note: 'the API no-op: the run span is not recorded, so nothing else is followed',
    },
    { case: 'the same turn with no plugin', ns: none, ratio: none / empty, note: 'what calling plugins at all costs the runner' },
    {
      case: "otelPlugin's own callbacks for one such turn (11 calls), no SDK installed",
      ns: callbacks,
      ratio: callbacks / empty,
      note: 'for the scale',
    },
  ];
}
