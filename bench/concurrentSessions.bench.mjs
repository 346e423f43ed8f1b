// Many users at once: 200 sessions served concurrently, each created and then given 5 turns one
// after the other (the model calls a tool that awaits 5 ms, then answers), in one in-memory runner
// per framework. The wall time of all 1,000 turns, adkit against @google/adk, in alternating
// rounds. Issue #18: ≥ 4× faster than the peer (≈ 590 ms).
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { alternate, counts } from './measure.mjs';
import { adkitRunner, peerRunner } from './peerAdk.bench.mjs';
import { loadPeer, runTurn, userMessage, versus } from './peer.mjs';

export const title = 'concurrent sessions: 200 sessions × 5 turns with a 5 ms tool, adkit vs @google/adk';

const SESSIONS = counts(200, 4);
const TURNS = counts(5, 2);
const DELAY_MS = counts(5, 1);
const CALLS = [{ name: 'lookup', args: { key: 'k' } }];
const execute = async ({ key }) => {
  await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
  return { key, value: 42 };
};

/** Round `i`: SESSIONS new sessions at once, each with TURNS turns in sequence. */
function rounds(runner) {
  return (i) =>
    Promise.all(
      Array.from({ length: SESSIONS }, async (_, s) => {
        const sessionId = `r${i}-s${s}`;
        await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId });
        for (let t = 0; t < TURNS; t++) await runTurn(runner, sessionId, userMessage);
      }),
    );
}

export async function run() {
  const peer = loadPeer();
  const [adk, { z }] = await Promise.all([peer.adk, peer.zod]);
  const adkitTool = functionTool({ name: 'lookup', description: 'Looks a key up.', parameters: Type.Object({ key: Type.String() }), execute });
  const peerTool = new adk.FunctionTool({ name: 'lookup', description: 'Looks a key up.', parameters: z.object({ key: z.string() }), execute });
  // Three warm-up rounds (3,000 turns in all): as in peerAdk.bench.mjs, neither framework is at its
  // steady state after one. Eleven timed rounds, not five: an adkit round lasts about 80 ms, and
  // one slow round in five (a major collection, the machine's neighbours) moved the median, so the
  // ratio swung between 3.9x and 4.5x from run to run with the same code.
  const [adkit, theirs] = await alternate([rounds(adkitRunner([adkitTool], CALLS)), rounds(peerRunner(adk, [peerTool], CALLS))], {
    warmup: counts(3, 1),
    rounds: counts(11, 2),
    minMs: 0,
    batch: 1,
  });
  const what = `${SESSIONS} sessions × ${TURNS} turns at once, tool awaits ${DELAY_MS} ms (wall time)`;
  return [
    { id: 'sessions200.adkit', case: `adkit: ${what}`, ...adkit },
    { id: 'sessions200.peer', case: `@google/adk ${peer.version}: the same`, ...theirs, ratio: theirs.ns / adkit.ns, note: versus(adkit.ns, theirs.ns) },
  ];
}

/** Workloads for a CPU profile (profile.mjs) when adkit misses a goal here: each runs for `ms`. */
export const profiles = {
  sessions: async (ms) => {
    const adkitTool = functionTool({ name: 'lookup', description: 'Looks a key up.', parameters: Type.Object({ key: Type.String() }), execute });
    const round = rounds(adkitRunner([adkitTool], CALLS));
    const end = performance.now() + ms;
    for (let i = 0; performance.now() < end; i++) await round(i);
  },
};
