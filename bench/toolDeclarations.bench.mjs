// What tools cost every model step: a turn with one model step (the model answers at once) for an
// agent with 0, 20 and 100 function tools (the 5-field schema of functionTool.bench.mjs, distinct
// names), in each framework, all in alternating rounds. Per tool per step = (turn with N tools −
// turn with none) / N, round by round; each timed call also creates its session, which the
// difference cancels. Issue #18: ≤ 0.2 µs per tool per step, ≥ 50× faster than @google/adk.
import { InMemoryRunner, LlmAgent } from '@adkit/flow';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { alternate, counts, median } from './measure.mjs';
import { loadPeer, runTurn, scriptedReply, userMessage, versus } from './peer.mjs';

export const title = 'tool declarations: what 20 and 100 tools add to a model step, adkit vs @google/adk';

const SIZES = [20, 100];
/** The agents measured: no tools (the baseline), then each size. */
const TOOL_COUNTS = [0, ...SIZES];
const OPTIONS = { warmup: counts(50, 1), rounds: counts(7, 2), minMs: counts(300, 0), batch: counts(5, 1) };

const parameters = Type.Object({
  name: Type.String({ minLength: 1 }),
  age: Type.Integer({ minimum: 0, maximum: 150 }),
  score: Type.Number(),
  active: Type.Boolean(),
  tags: Type.Array(Type.String(), { maxItems: 10 }),
});
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
  const zodParameters = z.object({
    name: z.string().min(1),
    age: z.number().int().min(0).max(150),
    score: z.number(),
    active: z.boolean(),
    tags: z.array(z.string()).max(10),
  });
  const tools = Array.from({ length: count }, (_, i) => new adk.FunctionTool({ name: `tool_${i}`, description: `Tool number ${i}.`, parameters: zodParameters, execute }));
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

export async function run() {
  const peer = loadPeer();
  const [adk, { z }] = await Promise.all([peer.adk, peer.zod]);
  const sides = [...TOOL_COUNTS.map((n) => adkitTurns(n)), ...TOOL_COUNTS.map((n) => peerTurns(adk, z, n))];
  const results = await alternate(
    sides.map((side) => side.turn),
    OPTIONS,
  );
  // Sanity: every model step saw exactly the agent's tools.
  for (const [k, side] of sides.entries())
    if (side.seen() !== TOOL_COUNTS[k % TOOL_COUNTS.length]) throw new Error(`a step declared ${side.seen()} tools, not ${TOOL_COUNTS[k % TOOL_COUNTS.length]}`);

  const perTool = (offset, n) => {
    const base = results[offset];
    const withTools = results[offset + TOOL_COUNTS.indexOf(n)];
    const samples = withTools.samples.map((ns, round) => (ns - base.samples[round]) / n);
    return { ns: median(samples), samples };
  };
  const rows = [];
  for (const n of SIZES) {
    const ours = perTool(0, n);
    const theirs = perTool(TOOL_COUNTS.length, n);
    rows.push(
      { id: `declarations.${n}.adkit`, case: `adkit: per tool per model step, ${n} tools`, ...ours, note: `turn with ${n} tools − turn with none, ÷ ${n}` },
      {
        id: `declarations.${n}.peer`,
        case: `@google/adk ${peer.version}: per tool per model step, ${n} tools`,
        ...theirs,
        ratio: theirs.ns / ours.ns,
        note: versus(ours.ns, theirs.ns),
      },
    );
  }
  for (const [k, n] of TOOL_COUNTS.entries())
    rows.push(
      { case: `adkit: a one-step turn with ${n} tools (session creation included)`, ...results[k], note: 'for information' },
      { case: `@google/adk ${peer.version}: a one-step turn with ${n} tools (session creation included)`, ...results[TOOL_COUNTS.length + k], note: 'for information' },
    );
  return rows;
}

/** Workloads for a CPU profile (profile.mjs) when adkit misses a goal here: each runs for `ms`. */
export const profiles = {
  declarations: async (ms) => {
    const { turn } = adkitTurns(100);
    const end = performance.now() + ms;
    for (let i = 0; performance.now() < end; i++) await turn(i);
  },
};
