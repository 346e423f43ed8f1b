// Cold start against the peer: what a fresh node process spends importing what an app needs,
// in alternating child processes: adkit's @adkit/flow + @adkit/function-tool, the same plus
// @adkit/model-openai (which loads the openai SDK), and @google/adk (one package: agents, tools,
// runner and its Gemini model). Timed inside each child, from before the first import to after the
// last, so node's own start-up is left out on both sides. Issue #18: ≤ 150 ms (the peer ≈ 1.05 s).
// coldImport.bench.mjs (issue #9) shows where adkit's first tool call spends its time.
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alternateProcesses } from './measure.mjs';
import { loadPeer, peerDir, versus } from './peer.mjs';

export const title = 'cold import: adkit (+ model-openai) vs @google/adk, in fresh processes';

const RUNS = 9;
const here = fileURLToPath(new URL('.', import.meta.url));

/** A child's source: times `imports` (a list of import specifiers) and prints milliseconds. */
const timed = (imports) =>
  `const t = performance.now(); ${imports.map((specifier) => `await import(${JSON.stringify(specifier)});`).join(' ')} process.stdout.write(String(performance.now() - t));`;

export async function run() {
  const peer = loadPeer();
  const peerEntry = pathToFileURL(createRequire(`${peerDir}package.json`).resolve('@google/adk')).href.replace('/cjs/', '/esm/');
  const [core, withOpenAI, adk] = alternateProcesses(
    [timed(['@adkit/flow', '@adkit/function-tool']), timed(['@adkit/flow', '@adkit/function-tool', '@adkit/model-openai']), timed([peerEntry])],
    { runs: RUNS, cwd: here },
  );
  return [
    { id: 'coldImport.core', case: 'adkit: import @adkit/flow + @adkit/function-tool', ...core },
    { id: 'coldImport.openai', case: 'adkit: the same + @adkit/model-openai (and the openai SDK)', ...withOpenAI, ratio: withOpenAI.ns / core.ns },
    { id: 'coldImport.peer', case: `@google/adk ${peer.version}: import @google/adk`, ...adk, ratio: adk.ns / core.ns, note: `${versus(withOpenAI.ns, adk.ns)} (with model-openai)` },
  ];
}

/** Workloads for a CPU profile (profile.mjs): the imports themselves, once, in a fresh process. */
export const profiles = {
  core: Object.assign(
    async () => {
      await import('@adkit/flow');
      await import('@adkit/function-tool');
    },
    { once: true },
  ),
  openai: Object.assign(
    async () => {
      await import('@adkit/flow');
      await import('@adkit/function-tool');
      await import('@adkit/model-openai');
    },
    { once: true },
  ),
};
