// One function call through a whole runner turn, adkit against its peer @google/adk, in alternating
// rounds: the model asks for `add`, the tool runs (arguments validated: TypeBox for adkit, zod for
// ADK), the model answers. Both get the same minimal scripted model (peer.mjs) and a fresh
// in-memory session per turn, so what is measured is the framework. Issue #18: ≥ 6× faster.
import { InMemoryRunner, LlmAgent } from '@adkit/flow';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { alternate, counts } from './measure.mjs';
import { adkitScriptedModel, loadPeer, peerScriptedModel, runTurn, userMessage, versus } from './peer.mjs';

export { loadPeer } from './peer.mjs';

export const title = 'runner turn: one function call through adkit vs @google/adk';

// Both frameworks need thousands of turns to reach their steady state (the JIT, and the heap's young
// generation growing to the allocation rate): after 300 warm-up turns adkit still ran ~5× slower
// than after 3,000, @google/adk ~3×, so the old 300 measured the warm-up more than the frameworks.
const WARMUP = counts(3_000, 2);
const ROUNDS = counts(7, 2);
// 1,500 turns a round, not 300: a round of 300 adkit turns lasted ~9 ms, shorter than one of the
// collector's longer pauses, so a round either missed the pauses or was doubled by one, and the
// median of 7 swung between runs (adkit 3.1x-5.5x @google/adk's, with @google/adk's 40 ms rounds
// steady); at 1,500 each round carries its share of the collector's work, for both frameworks.
const TURNS_PER_ROUND = counts(1_500, 2);

const CALLS = [{ name: 'add', args: { a: 2, b: 3 } }];
const execute = async ({ a, b }) => ({ sum: a + b });

/** A turn function over fresh sessions of `runner`, created here, before anything is timed. */
async function turns(runner) {
  for (let i = 0; i < WARMUP + ROUNDS * TURNS_PER_ROUND; i++)
    await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId: `s${i}` });
  return (i) => runTurn(runner, `s${i}`, userMessage);
}

/** An adkit InMemoryRunner over an agent with `tools`, answered by the scripted model. */
export function adkitRunner(tools, calls = CALLS) {
  return new InMemoryRunner({ agent: new LlmAgent({ name: 'calculator', model: adkitScriptedModel(calls), tools }), appName: 'bench' });
}

/** An @google/adk InMemoryRunner over an agent with `tools`, answered by the same scripted model. */
export function peerRunner(adk, tools, calls = CALLS) {
  return new adk.InMemoryRunner({ agent: new adk.LlmAgent({ name: 'calculator', model: peerScriptedModel(adk, calls), tools }), appName: 'bench' });
}

/** The `add` tool in each framework. */
export function addTools(adk, z) {
  return {
    adkit: functionTool({ name: 'add', description: 'Adds two numbers.', parameters: Type.Object({ a: Type.Number(), b: Type.Number() }), execute }),
    peer: new adk.FunctionTool({ name: 'add', description: 'Adds two numbers.', parameters: z.object({ a: z.number(), b: z.number() }), execute }),
  };
}

export async function run() {
  const peer = loadPeer();
  const [adk, { z }] = await Promise.all([peer.adk, peer.zod]);
  const add = addTools(adk, z);
  const [adkit, theirs] = await alternate([await turns(adkitRunner([add.adkit])), await turns(peerRunner(adk, [add.peer]))], {
    warmup: WARMUP,
    rounds: ROUNDS,
    minMs: 0,
    batch: TURNS_PER_ROUND,
  });
  return [
    { id: 'turn.adkit', case: 'adkit: one call through InMemoryRunner (model call, tool, model answer)', ...adkit },
    { id: 'turn.peer', case: `@google/adk ${peer.version}: the same turn through its InMemoryRunner`, ...theirs, ratio: theirs.ns / adkit.ns, note: versus(adkit.ns, theirs.ns) },
  ];
}

/** Workloads for a CPU profile (profile.mjs) when adkit misses a goal here: each runs for `ms`. */
export const profiles = { turn: profileTurns };

/** adkit's runner turns, each on a fresh session, for `ms` milliseconds. */
async function profileTurns(ms) {
  const runner = adkitRunner([functionTool({ name: 'add', description: 'Adds two numbers.', parameters: Type.Object({ a: Type.Number(), b: Type.Number() }), execute })]);
  const end = performance.now() + ms;
  for (let i = 0; performance.now() < end; i++) {
    await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId: `s${i}` });
    await runTurn(runner, `s${i}`, userMessage);
  }
}
