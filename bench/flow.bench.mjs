// One function call through the flow (a whole InMemoryRunner turn: call, tool, final text) against
// the bare handler, in the same run (issue #3).
import { createUserContent, InMemoryRunner, LlmAgent } from '@adkit/flow';
import { functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { measure } from './measure.mjs';

export const title = 'flow: one function call through InMemoryRunner vs bare handler';

const WARMUP = 300;
const ROUNDS = 7;
const TURNS_PER_ROUND = 400;

const handler = async (args) => ({ sum: args.a + args.b });

export async function run() {
  const turns = WARMUP + ROUNDS * TURNS_PER_ROUND;
  const steps = [];
  for (let i = 0; i < turns; i++)
    steps.push(functionCallResponse([{ name: 'add', args: { a: i, b: 1 } }]), textResponse(`the sum is ${i + 1}`));
  const model = new ScriptedModel(steps);
  const add = functionTool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
    execute: handler,
  });
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'calculator', model, tools: [add] }), appName: 'bench' });
  // A fresh session per turn, created up front, so history does not grow and setup is not timed.
  for (let i = 0; i < turns; i++) await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId: `s${i}` });

  let answers = 0;
  const turn = async (i) => {
    let last;
    for await (const event of runner.runAsync({ userId: 'u', sessionId: `s${i}`, newMessage: createUserContent('add') }))
      last = event;
    if (last?.content?.parts?.[0]?.text !== `the sum is ${i + 1}`) throw new Error(`turn ${i} ended unexpectedly`);
    answers++;
  };
  const flow = await measure(turn, { warmup: WARMUP, rounds: ROUNDS, minMs: 0, batch: TURNS_PER_ROUND });

  let sink = 0;
  const bare = await measure(async (i) => {
    sink += (await handler({ a: i, b: 1 })).sum;
  });
  if (answers !== turns || sink === 0) throw new Error('unreachable');
  return [
    { case: 'bare handler (await handler(args))', ns: bare },
    {
      case: 'one call through the flow (runner turn: model call, tool, model answer)',
      ns: flow,
      ratio: flow / bare,
      note: 'includes ScriptedModel request snapshots and two session appends',
    },
  ];
}
