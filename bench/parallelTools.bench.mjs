// Two slow tools asked for in one model response: the wall time of the whole turn, adkit against
// @google/adk, in alternating rounds. Each tool awaits a 200 ms timer; adkit runs the two calls
// concurrently (FL-14), @google/adk one after the other. Issue #18: ≤ 205 ms (the peer ≈ 403 ms).
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { alternate, counts } from './measure.mjs';
import { adkitRunner, peerRunner } from './peerAdk.bench.mjs';
import { loadPeer, runTurn, userMessage, versus } from './peer.mjs';

export const title = 'parallel tools: two 200 ms tools in one turn, wall time, adkit vs @google/adk';

/** How long each tool waits; a smoke run waits less. */
const DELAY_MS = counts(200, 5);
const CALLS = [
  { name: 'slow_a', args: { label: 'a' } },
  { name: 'slow_b', args: { label: 'b' } },
];
const execute = async ({ label }) => {
  await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
  return { label };
};

function turns(runner) {
  return async (i) => {
    await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId: `s${i}` });
    await runTurn(runner, `s${i}`, userMessage);
  };
}

export async function run() {
  const peer = loadPeer();
  const [adk, { z }] = await Promise.all([peer.adk, peer.zod]);
  const adkitTools = CALLS.map(({ name }) => functionTool({ name, description: `Waits ${DELAY_MS} ms.`, parameters: Type.Object({ label: Type.String() }), execute }));
  const peerTools = CALLS.map(({ name }) => new adk.FunctionTool({ name, description: `Waits ${DELAY_MS} ms.`, parameters: z.object({ label: z.string() }), execute }));
  const [adkit, theirs] = await alternate([turns(adkitRunner(adkitTools, CALLS)), turns(peerRunner(adk, peerTools, CALLS))], {
    warmup: 1,
    rounds: 5,
    minMs: 0,
    batch: 1,
  });
  return [
    { id: 'parallel.adkit', case: `adkit: a turn calling two ${DELAY_MS} ms tools (wall time)`, ...adkit, delayMs: DELAY_MS, note: 'the calls run concurrently' },
    { id: 'parallel.peer', case: `@google/adk ${peer.version}: the same turn (wall time)`, ...theirs, ratio: theirs.ns / adkit.ns, note: versus(adkit.ns, theirs.ns) },
  ];
}
