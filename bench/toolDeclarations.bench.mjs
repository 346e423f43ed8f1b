// What tools cost every model step: a turn with one model step (the model answers at once) for an
// agent with N function tools (the 5-field schema of functionTool.bench.mjs, distinct names)
// against the same turn for an agent with none, in each framework. The two turns alternate call by
// call, so that both see the same machine load, and each is timed on its own; per tool per step is
// the median over a round's pairs of (time with N tools − time with none) / N. Each timed turn
// also creates its session, which the difference cancels. Issue #18: ≤ 0.2 µs per tool per step,
// ≥ 50× faster than @google/adk.
import { InMemoryRunner, LlmAgent } from '@adkit/flow';
import { functionTool } from '@adkit/function-tool';
import { parameters, zodParameters } from './fiveFields.mjs';
import { betweenRounds, counts, median } from './measure.mjs';
import { loadPeer, runTurn, scriptedReply, userMessage, versus } from './peer.mjs';

export const title = 'tool declarations: what 20 and 100 tools add to a model step, adkit vs @google/adk';

const SIZES = [20, 100];
const ROUNDS = counts(21, 2);
/** Turn pairs per round and for warm-up, per framework: @google/adk's turns are ~50× slower. */
const PAIRS = { adkit: { warmup: counts(1_000, 1), batch: counts(400, 2) }, peer: { warmup: counts(40, 1), batch: counts(15, 2) } };

const execute = async (args) => ({ greeting: args.name });

/** How many function declarations a request carries (both frameworks use the genai shape). */
const declared = (request) => (request.config?.tools ?? []).reduce((sum, entry) => sum + (entry.functionDeclarations?.length ?? 0), 0);

function adkitTurns(count) {
  const tools = Array.from({ length: count }, (_, i) => functionTool({ name: `tool_${i}`, description: `Tool number ${i}.`, parameters, execute }));
  let seen;
  const model = {
    model: 'scripted',
    async *generateContent(request) {
      seen ??= declared(request);
      yield scriptedReply(request, []);
    },
  };
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'agent', model, tools }), appName: 'bench' });
  return { turn: (i) => turn(runner, i), seen: () => seen };
}

function peerTurns(adk, z, count) {
  const tools = Array.from({ length: count }, (_, i) => new adk.FunctionTool({ name: `tool_${i}`, description: `Tool number ${i}.`, parameters: zodParameters(z), execute }));
  let seen;
  class Model extends adk.BaseLlm {
    constructor() {
      super({ model: 'scripted' });
    }
    async *generateContentAsync(request) {
      seen ??= declared(request);
      yield scriptedReply(request, []);
    }
    async connect() {
      throw new Error('not used');
    }
  }
  const runner = new adk.InMemoryRunner({ agent: new adk.LlmAgent({ name: 'agent', model: new Model(), tools }), appName: 'bench' });
  return { turn: (i) => turn(runner, i), seen: () => seen };
}

async function turn(runner, i) {
  await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId: `s${i}` });
  await runTurn(runner, `s${i}`, userMessage);
}

/**
 * Times `base(i)` and `withTools(i)` call by call, alternately (which goes first alternates too),
 * for ROUNDS rounds of `batch` pairs after `warmup` pairs, a scavenge before each round (`betweenRounds`). Each round
 * keeps the median of its pairs, so that a pause that hits one turn of a pair (a GC, another
 * process taking the CPU) does not count. Resolves to `{base, withTools, perTool}`, each
 * `{ns, samples}`: per turn, and the difference per tool (÷ `tools`).
 */
async function paired(base, withTools, tools, { warmup, batch }) {
  for (let i = 0; i < warmup; i++) {
    await base(i);
    await withTools(i);
  }
  const samples = { base: [], withTools: [], perTool: [] };
  let call = warmup;
  for (let round = 0; round < ROUNDS; round++) {
    betweenRounds();
    const baseNs = [];
    const withNs = [];
    const differences = [];
    for (let k = 0; k < batch; k++, call++) {
      const baseFirst = k % 2 === 0;
      const t0 = process.hrtime.bigint();
      await (baseFirst ? base : withTools)(call);
      const t1 = process.hrtime.bigint();
      await (baseFirst ? withTools : base)(call);
      const t2 = process.hrtime.bigint();
      const [b, w] = baseFirst ? [t1 - t0, t2 - t1] : [t2 - t1, t1 - t0];
      baseNs.push(Number(b));
      withNs.push(Number(w));
      differences.push(Number(w - b));
    }
    samples.base.push(median(baseNs));
    samples.withTools.push(median(withNs));
    samples.perTool.push(median(differences) / tools);
  }
  const result = (list) => ({ ns: median(list), samples: list });
  return { base: result(samples.base), withTools: result(samples.withTools), perTool: result(samples.perTool) };
}

/** Checks that every model step of `side` declared exactly `count` tools. */
function checkDeclared(side, count) {
  if (side.seen() !== count) throw new Error(`a step declared ${side.seen()} tools, not ${count}`);
}

export async function run() {
  const peer = loadPeer();
  const [adk, { z }] = await Promise.all([peer.adk, peer.zod]);
  const rows = [];
  const info = [];
  for (const n of SIZES) {
    const sides = { adkit: [adkitTurns(0), adkitTurns(n)], peer: [peerTurns(adk, z, 0), peerTurns(adk, z, n)] };
    const ours = await paired(sides.adkit[0].turn, sides.adkit[1].turn, n, PAIRS.adkit);
    const theirs = await paired(sides.peer[0].turn, sides.peer[1].turn, n, PAIRS.peer);
    for (const [base, withTools] of Object.values(sides)) {
      checkDeclared(base, 0);
      checkDeclared(withTools, n);
    }
    rows.push(
      { id: `declarations.${n}.adkit`, case: `adkit: per tool per model step, ${n} tools`, ...ours.perTool, note: `(turn with ${n} tools − turn with none) ÷ ${n}` },
      {
        id: `declarations.${n}.peer`,
        case: `@google/adk ${peer.version}: per tool per model step, ${n} tools`,
        ...theirs.perTool,
        ...(ours.perTool.ns > 0 && { ratio: theirs.perTool.ns / ours.perTool.ns }),
        note: versus(ours.perTool.ns, theirs.perTool.ns),
      },
    );
    info.push(
      { case: `adkit: a one-step turn with no tools (paired with ${n} tools; session creation included)`, ...ours.base, note: 'for information' },
      { case: `adkit: a one-step turn with ${n} tools (session creation included)`, ...ours.withTools, note: 'for information' },
      { case: `@google/adk ${peer.version}: a one-step turn with no tools (paired with ${n} tools)`, ...theirs.base, note: 'for information' },
      { case: `@google/adk ${peer.version}: a one-step turn with ${n} tools`, ...theirs.withTools, note: 'for information' },
    );
  }
  return [...rows, ...info];
}

/** Workloads for a CPU profile (profile.mjs) when adkit misses a goal here: each runs for `ms`. */
export const profiles = {
  declarations: async (ms) => {
    const { turn } = adkitTurns(100);
    const end = performance.now() + ms;
    for (let i = 0; performance.now() < end; i++) await turn(i);
  },
};
