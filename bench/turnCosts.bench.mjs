// What the guarantees of a runner turn cost (#24): the turn of peerAdk.bench.mjs (the model asks
// for `add`, the tool runs, the model answers) next to each piece of guarded work it does, run on
// the data of a real turn with the flow's own functions, in alternating rounds:
// - the store's isolation: every stored event copied and frozen (`eventForStorage`, 4 a turn), so
//   no reader, tool or caller can change what the store holds;
// - the depth checks on the message, the state and the call's arguments (a value the store could
//   not hold is refused before anything is saved);
// - the handler's own copy of its arguments;
// - the run's cancellation: its canceller and the link of the one call (made per run);
// - fresh random ids (the invocation, 4 events, the client call id);
// and, not a guarantee but the shape of the API, the event stream: an empty pipeline as deep as
// the flow's (the runner's and the agent flow's async generators, the model call's and the tool
// batch's iterators) passing the same three events. The rest of the turn is what the flow does
// besides: tools resolved and declared, the request built from the history, callbacks and plugins
// looked for, the events made. @google/adk's turn runs in the same rounds (when the peer is
// installed), so that the turn without its guarded work is set against the peer's of this run:
// whether the 6× goal of peerAdk.bench.mjs is missed on a guarantee or on the flow's own work.
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { alternate, counts } from './measure.mjs';
import { addTools, adkitRunner, peerRunner } from './peerAdk.bench.mjs';
import { loadPeer, runTurn, userMessage, versus } from './peer.mjs';
// Internal: the flow's own pieces, as the turn runs them (the same module instances, via dist).
import { eventForStorage } from '../packages/flow/dist/sessions/sessionState.js';
import { exceedsDepth, MAX_VALUE_DEPTH } from '../packages/flow/dist/content/valueDepth.js';
import { cloneData } from '../packages/flow/dist/content/cloneData.js';
import { RunCanceller } from '../packages/flow/dist/context/runCancellation.js';
import { callSignal } from '../packages/flow/dist/llmFlow/deadline.js';
import { newFunctionCallId, newId } from '../packages/flow/dist/content/ids.js';

export const title = 'runner turn: what its guarantees cost, piece by piece';

const WARMUP = counts(3_000, 2);
const ROUNDS = counts(7, 2);
// As in peerAdk.bench.mjs: a round of 1,500 turns carries its share of the collector's work.
const TURNS_PER_ROUND = counts(1_500, 2);
const CALLS = [{ name: 'add', args: { a: 2, b: 3 } }];
const execute = async ({ a, b }) => ({ sum: a + b });
/** Each piece runs this many times per timed call (alone it is far shorter than a turn); its time is per run. */
const REPEAT = counts(100, 2);

/** `piece`, run REPEAT times per call. */
const repeated = (piece) => async () => {
  for (let r = 0; r < REPEAT; r++) piece();
};
/** A result of `alternate` for a repeated piece, per single run. */
const perRun = ({ ns, samples }) => ({ ns: ns / REPEAT, samples: samples.map((value) => value / REPEAT) });

/** One real turn's events as the store received them: plain, unfrozen objects. */
async function turnEvents() {
  const runner = adkitRunner([functionTool({ name: 'add', description: 'Adds two numbers.', parameters: Type.Object({ a: Type.Number(), b: Type.Number() }), execute })]);
  await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId: 'sample' });
  await runTurn(runner, 'sample', userMessage);
  const session = await runner.sessionService.getSession({ appName: 'bench', userId: 'u', sessionId: 'sample' });
  if (session.events.length !== 4) throw new Error(`a turn stored ${session.events.length} events, not 4`);
  return JSON.parse(JSON.stringify(session.events));
}

// The event stream as deep as a turn's, passing its three events (the user's is saved, not
// yielded): the model's own async generator, read by an iterator written by hand (as callModel
// is), the tool batch's iterator (as executeFunctionCalls'), the agent flow's async generator (its
// steps inside it) and the runner's. Defined once, at the top level: an async generator function
// defined inside a call is a new closure with a prototype of its own each time, and costs
// microseconds more per call.
async function* model(event) {
  yield event;
}
const DONE = Object.freeze({ done: true, value: undefined });
class ModelResponses {
  constructor(event) {
    this.stream = model(event);
  }
  [Symbol.asyncIterator]() {
    return this;
  }
  async next() {
    return await this.stream.next();
  }
  async return() {
    await this.stream.return();
    return DONE;
  }
}
class CallBatch {
  constructor(event) {
    this.event = event;
  }
  [Symbol.asyncIterator]() {
    return this;
  }
  next() {
    const event = this.event;
    this.event = undefined;
    return Promise.resolve(event ? { done: false, value: event } : DONE);
  }
}
async function* flow(events) {
  for await (const event of new ModelResponses(events[1])) {
    yield event;
    for await (const produced of new CallBatch(events[2])) yield produced;
    // The step ends after its calls, leaving the model's stream (as the flow does).
    break;
  }
  for await (const event of new ModelResponses(events[3])) yield event;
}
async function* runAsync(events) {
  for await (const event of flow(events)) yield event;
}

/** The last of the events the pipeline passes on. */
async function pipeline(events) {
  let last;
  for await (const event of runAsync(events)) last = event;
  return last;
}

/** @google/adk's turn over fresh sessions, as in peerAdk.bench.mjs; undefined when the peer is not installed. */
async function peerTurns() {
  let peer;
  try {
    peer = loadPeer();
  } catch (error) {
    if (error.code === 'PEER_NOT_INSTALLED') return undefined;
    throw error;
  }
  const [adk, { z }] = await Promise.all([peer.adk, peer.zod]);
  const runner = peerRunner(adk, [addTools(adk, z).peer], CALLS);
  for (let i = 0; i < WARMUP + ROUNDS * TURNS_PER_ROUND; i++) await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId: `s${i}` });
  return Object.assign((i) => runTurn(runner, `s${i}`, userMessage), { version: peer.version });
}

export async function run() {
  const runner = adkitRunner([functionTool({ name: 'add', description: 'Adds two numbers.', parameters: Type.Object({ a: Type.Number(), b: Type.Number() }), execute })], CALLS);
  for (let i = 0; i < WARMUP + ROUNDS * TURNS_PER_ROUND; i++)
    await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId: `s${i}` });
  const peerTurn = await peerTurns();
  const events = await turnEvents();
  const [user, call] = [events[0], events[1]];
  const args = call.content.parts[0].functionCall.args;
  let sink = 0;
  const [turn, ...timed] = await alternate(
    [
      (i) => runTurn(runner, `s${i}`, userMessage),
      repeated(() => {
        for (const event of events) sink += eventForStorage(event).timestamp;
      }),
      repeated(() => {
        // As a turn checks: the message and its state delta (runner), the call's arguments (model
        // step), the state the call wrote (tool step).
        if (exceedsDepth(user.content, MAX_VALUE_DEPTH + 4) || exceedsDepth(undefined, MAX_VALUE_DEPTH + 1) || exceedsDepth(args) || exceedsDepth(call.actions.stateDelta, MAX_VALUE_DEPTH + 1))
          sink++;
      }),
      repeated(() => {
        sink += cloneData(args).a;
      }),
      repeated(() => {
        const run = new RunCanceller();
        const linked = callSignal(run, undefined);
        linked.release();
        sink += run.aborted ? 0 : 1;
      }),
      repeated(() => {
        sink += `e-${newId()}`.length + newId().length + newId().length + newId().length + newId().length + newFunctionCallId().length;
      }),
      async () => {
        sink += (await pipeline(events)).timestamp;
      },
      ...(peerTurn ? [peerTurn] : []),
    ],
    { warmup: WARMUP, rounds: ROUNDS, minMs: 0, batch: TURNS_PER_ROUND },
  );
  if (sink === 0) throw new Error('unreachable');
  const [store, depth, argsCopy, cancellation, ids] = timed.slice(0, 5).map(perRun);
  const [stream, peer] = timed.slice(5);
  const share = (part) => `${((100 * part.ns) / turn.ns).toFixed(1)}% of the turn`;
  const guarded = store.ns + depth.ns + argsCopy.ns + cancellation.ns + ids.ns;
  return [
    { id: 'turnCosts.turn', case: 'the whole turn (as in peerAdk: model call, tool, model answer)', ...turn },
    { id: 'turnCosts.piece.store', case: 'store isolation: the 4 stored events copied and frozen (eventForStorage)', ...store, ratio: store.ns / turn.ns, note: share(store) },
    { id: 'turnCosts.piece.depth', case: 'depth checks: message, state delta, call arguments, the state the call wrote', ...depth, ratio: depth.ns / turn.ns, note: share(depth) },
    { id: 'turnCosts.piece.argsCopy', case: "the handler's own copy of its arguments (cloneData)", ...argsCopy, ratio: argsCopy.ns / turn.ns, note: share(argsCopy) },
    { id: 'turnCosts.piece.cancellation', case: "the run's cancellation: its canceller and the call's link (made and released)", ...cancellation, ratio: cancellation.ns / turn.ns, note: share(cancellation) },
    { id: 'turnCosts.piece.ids', case: 'fresh random ids: the invocation, 4 events, the client call id', ...ids, ratio: ids.ns / turn.ns, note: share(ids) },
    {
      id: 'turnCosts.guarded',
      case: 'all of the guarded work above, summed',
      ns: guarded,
      ratio: guarded / turn.ns,
      note: `${share({ ns: guarded })}; the turn without it: ${((turn.ns - guarded) / 1000).toFixed(2)} µs`,
    },
    ...(peer
      ? [
          { id: 'turnCosts.peer', case: `@google/adk ${peerTurn.version}: the same turn, in the same rounds`, ...peer, ratio: peer.ns / turn.ns, note: versus(turn.ns, peer.ns) },
          {
            id: 'turnCosts.unguarded',
            case: 'the turn without the guarded work above, against that @google/adk turn',
            ns: turn.ns - guarded,
            ratio: (turn.ns - guarded) / turn.ns,
            note: `${(peer.ns / (turn.ns - guarded)).toFixed(2)}× faster than @google/adk's turn (with it: ${(peer.ns / turn.ns).toFixed(2)}×)`,
          },
        ]
      : []),
    {
      id: 'turnCosts.stream',
      case: "for scale: an empty event pipeline as deep as the flow's (runner and agent flow generators, model call and tool batch iterators), passing the turn's 3 events",
      ...stream,
      ratio: stream.ns / turn.ns,
      note: `${share(stream)}: the event stream's own cost, before any work`,
    },
  ];
}
