// One warm MCP tool call over stdio, all against the real server-everything (`get-sum`):
// - the raw SDK client (`client.callTool`) on an open connection: the baseline; and the same
//   with what the toolset asks of the SDK on every call (a signal of the call's own for
//   cancellation, a progress handler), for information;
// - adkit's mcpToolset (`tool.run(ctx, args)`), which keeps one connection per toolset
//   (issue #12: goal ≤ 1.2× the raw client). The raw rows use the toolset's own client and server
//   process, and all three are measured in alternating rounds of 100 calls, so they see the same
//   process and the same machine load;
// - @google/adk's MCPToolset, which opens a new session (a new server process over stdio) for
//   every call; measured on a few calls only. The peer is installed on first run (see peerAdk).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createToolContext } from '@adkit/flow/testing';
import { mcpToolset } from '@adkit/mcp-toolset';
import { formatDuration, measure, median } from './measure.mjs';
// Internal: the toolset's connections (the same module instance as the package's, via its dist).
import { toolsetConnections } from '../packages/mcp-toolset/dist/mcpToolset.js';

export const title = 'mcp-toolset: a warm stdio call vs the raw SDK client and @google/adk';

/** The goal: a warm call through the toolset costs at most this many raw client calls. */
const GOAL = 1.2;
const require = createRequire(import.meta.url);
const server = { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'], stderr: 'ignore' };
const peerDir = fileURLToPath(new URL('./peer/', import.meta.url));
const WARMUP = 1_000;
const ROUNDS = 21;
/** One round: 100 calls, no warm-up (`measure` then returns that round's ns per call). */
const ROUND = { warmup: 0, rounds: 1, minMs: 0, batch: 100 };

export async function run() {
  const ctx = createToolContext();
  const toolset = mcpToolset({ stdio: server });
  const sum = (await toolset.tools(ctx)).find((tool) => tool.name === 'get-sum');
  // The toolset's own SDK client and server process: two processes can differ by tens of percent
  // on a busy machine, so the baseline is the very client the toolset calls through.
  const { connections } = toolsetConnections(toolset);
  const client = (await connections.connection({ key: '', headers: {} }).peek()).client;

  // Sanity: both give the server's answer.
  const answer = await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
  const ours = await sum.run(ctx, { a: 2, b: 3 });
  if (answer.content[0].text !== ours.output) throw new Error(`the toolset and the raw client disagree: ${JSON.stringify([answer, ours])}`);

  let sink = 0;
  // As in a run, each call comes with a signal of its own (the flow makes one per tool call); they
  // are made before each round, outside the timing, for the raw call and the toolset alike.
  let signals = [];
  let contexts = [];
  const prepare = () => {
    signals = Array.from({ length: ROUND.batch }, () => new AbortController().signal);
    contexts = signals.map((signal) => createToolContext({ signal }));
  };
  const raw = async (i) => {
    sink += (await client.callTool({ name: 'get-sum', arguments: { a: i, b: 1 } })).content.length;
  };
  const rawWithFeatures = async (i) => {
    const options = { signal: signals[i], onprogress: () => {} };
    sink += (await client.callTool({ name: 'get-sum', arguments: { a: i, b: 1 } }, undefined, options)).content.length;
  };
  const viaToolset = async (i) => {
    sink += (await sum.run(contexts[i], { a: i, b: 1 })).output.length;
  };
  const cases = [raw, rawWithFeatures, viaToolset];
  for (let i = 0; i < WARMUP; i++) {
    if (i % ROUND.batch === 0) prepare();
    for (const call of cases) await call(i % ROUND.batch);
  }
  // Wall time per call, and this process's CPU time per call (what the client side spends; less
  // sensitive to other processes on the machine than wall time).
  const rounds = cases.map(() => []);
  const cpu = cases.map(() => []);
  for (let round = 0; round < ROUNDS; round++)
    for (const [k, call] of cases.entries()) {
      prepare();
      const before = process.cpuUsage();
      rounds[k].push(await measure(call, ROUND));
      const used = process.cpuUsage(before);
      cpu[k].push(((used.user + used.system) * 1_000) / ROUND.batch);
    }
  const [rawNs, rawWithFeaturesNs, toolsetNs] = rounds.map(median);
  const [rawCpu, rawWithFeaturesCpu, toolsetCpu] = cpu.map(median);
  const cpuNote = (ns) => `client CPU ${formatDuration(ns)} a call (raw: ${formatDuration(rawCpu)})`;
  await toolset.close();

  const peer = await peerCall();
  if (sink === 0) throw new Error('unreachable');
  const ratio = toolsetNs / rawNs;
  const rows = [
    { case: 'raw SDK client: warm client.callTool over stdio', ns: rawNs },
    {
      case: 'raw SDK client with a per-call signal and onprogress',
      ns: rawWithFeaturesNs,
      ratio: rawWithFeaturesNs / rawNs,
      note: `what cancellation and progress cost in the SDK; ${cpuNote(rawWithFeaturesCpu)}`,
    },
    {
      case: 'mcpToolset: warm tool.run(ctx, args) over stdio',
      ns: toolsetNs,
      ratio,
      note: `${ratio <= GOAL ? `meets the goal of ≤ ${GOAL}×` : `MISSES the goal of ≤ ${GOAL}×`}; ${cpuNote(toolsetCpu)}`,
    },
  ];
  if (peer)
    rows.push({
      case: `@google/adk ${peer.version}: MCPToolset tool.runAsync over stdio`,
      ns: peer.ns,
      ratio: peer.ns / rawNs,
      note: `a new server process per call; adkit is ${(peer.ns / toolsetNs).toFixed(0)}× faster`,
    });
  return rows;
}

/** @google/adk's MCPTool.runAsync: connects (spawns the server), calls, closes — every call. */
async function peerCall() {
  if (!existsSync(`${peerDir}node_modules/@google/adk/package.json`)) {
    process.stdout.write('installing @google/adk into bench/peer (first run only) …\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: peerDir, stdio: 'inherit' });
  }
  const peerRequire = createRequire(`${peerDir}package.json`);
  const { MCPToolset } = await import(pathToFileURL(peerRequire.resolve('@google/adk')).href.replace('/cjs/', '/esm/'));
  const toolset = new MCPToolset({ type: 'StdioConnectionParams', serverParams: server });
  const sum = (await toolset.getTools()).find((tool) => tool.name === 'get-sum');
  const answer = await sum.runAsync({ args: { a: 2, b: 3 }, toolContext: {} });
  if (answer.content?.[0]?.text !== 'The sum of 2 and 3 is 5.') throw new Error(`@google/adk answered ${JSON.stringify(answer)}`);
  const ns = await measure(
    async (i) => {
      await sum.runAsync({ args: { a: i, b: 1 }, toolContext: {} });
    },
    { warmup: 1, rounds: 3, minMs: 0, batch: 3 },
  );
  await toolset.close();
  return { ns, version: peerRequire('@google/adk/package.json').version };
}
