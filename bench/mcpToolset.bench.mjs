// One warm MCP tool call over stdio, all against the real server-everything (`get-sum`):
// - the raw SDK client (`client.callTool`) on an open connection: the baseline; and the same
//   with what the toolset asks of the SDK on every call (a signal of the call's own for
//   cancellation, a progress handler), for information;
// - adkit's mcpToolset (`tool.run(ctx, args)`), which keeps one connection per toolset
//   (issue #12: goal ≤ 1.2× the raw client). The raw rows use the toolset's own client and server
//   process (two processes can differ by tens of percent on a busy machine), and the three are
//   measured in alternating rounds of 100 calls, so they see the same process and machine load;
//   each row also shows this process's CPU time per call, which other processes disturb less;
// - @google/adk's MCPToolset, which opens a new session (a new server process over stdio) for
//   every call; timed on a few calls only.
import { createRequire } from 'node:module';
import { createToolContext } from '@adkit/flow/testing';
import { mcpToolset } from '@adkit/mcp-toolset';
import { betweenRounds, counts, formatDuration, measure, median } from './measure.mjs';
import { loadPeer, versus } from './peer.mjs';
// Internal: the toolset's connections (the same module instance as the package's, via its dist).
import { toolsetConnections } from '../packages/mcp-toolset/dist/mcpToolset.js';

export const title = 'mcp-toolset: a warm stdio call vs the raw SDK client and @google/adk';

/** The goal: a warm call through the toolset costs at most this many raw client calls. */
const GOAL = 1.2;
const require = createRequire(import.meta.url);
const server = {
  command: process.execPath,
  args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  stderr: 'ignore',
};
const WARMUP = counts(1_000, 2);
const ROUNDS = counts(21, 2);
/** Calls per round: 400 (~0.1 s), so one slow pipe write does not move a round's median (100 did: 1.02–1.29× run to run). */
const BATCH = counts(400, 2);

/** A toolset on server-everything, its `get-sum` tool, and the SDK client it calls through. */
async function connect() {
  const toolset = mcpToolset({ stdio: server });
  const sum = (await toolset.tools(createToolContext())).find((tool) => tool.name === 'get-sum');
  const { connections } = toolsetConnections(toolset);
  const client = (await connections.connection({ key: '', headers: {} }).peek()).client;
  return { toolset, sum, client };
}

export async function run() {
  const { toolset, sum, client } = await connect();
  // Sanity: both give the server's answer.
  const answer = await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
  const ours = await sum.run(createToolContext(), { a: 2, b: 3 });
  if (answer.content[0].text !== ours.output) throw new Error(`the toolset and the raw client disagree: ${JSON.stringify([answer, ours])}`);

  let sink = 0;
  // As in a run, each call comes with a signal of its own (the flow makes one per tool call); they
  // are made before each round, outside the timing, for the raw call and the toolset alike.
  let signals = [];
  let contexts = [];
  const prepare = () => {
    signals = Array.from({ length: BATCH }, () => new AbortController().signal);
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
    if (i % BATCH === 0) prepare();
    for (const call of cases) await call(i % BATCH);
  }
  const wall = cases.map(() => []);
  const cpu = cases.map(() => []);
  for (let round = 0; round < ROUNDS; round++)
    for (let j = 0; j < cases.length; j++) {
      const k = (round + j) % cases.length;
      prepare();
      betweenRounds();
      const before = process.cpuUsage();
      const start = process.hrtime.bigint();
      for (let i = 0; i < BATCH; i++) await cases[k](i);
      wall[k].push(Number(process.hrtime.bigint() - start) / BATCH);
      const used = process.cpuUsage(before);
      cpu[k].push(((used.user + used.system) * 1_000) / BATCH);
    }
  await toolset.close();
  if (sink === 0) throw new Error('unreachable');

  const [rawNs, featuresNs, toolsetNs] = wall.map(median);
  const cpuNote = (k) => `client CPU ${formatDuration(median(cpu[k]))} a call (raw: ${formatDuration(median(cpu[0]))})`;
  const ratio = toolsetNs / rawNs;
  const rows = [
    { id: 'raw', case: 'raw SDK client: warm client.callTool over stdio', ns: rawNs, samples: wall[0] },
    {
      id: 'raw-features',
      case: 'raw SDK client with a per-call signal and onprogress',
      ns: featuresNs,
      samples: wall[1],
      ratio: featuresNs / rawNs,
      note: `what cancellation and progress cost in the SDK; ${cpuNote(1)}`,
    },
    {
      id: 'toolset',
      case: 'mcpToolset: warm tool.run(ctx, args) over stdio',
      ns: toolsetNs,
      samples: wall[2],
      ratio,
      note: `${ratio <= GOAL ? `meets the goal of ≤ ${GOAL}×` : `MISSES the goal of ≤ ${GOAL}×`}; ${cpuNote(2)}`,
    },
  ];
  const peer = await peerCall();
  if (peer)
    rows.push({
      id: 'peer',
      case: `@google/adk ${peer.version}: MCPToolset tool.runAsync over stdio`,
      ns: peer.ns,
      ratio: peer.ns / rawNs,
      note: `a new server process per call; ${versus(toolsetNs, peer.ns)}`,
    });
  return rows;
}

/** The workload of adkit alone, for a CPU profile: warm toolset calls for `ms`. */
export const profiles = {
  call: async (ms) => {
    const { toolset, sum } = await connect();
    const end = Date.now() + ms;
    for (let i = 0; Date.now() < end; i++) await sum.run(createToolContext({ signal: new AbortController().signal }), { a: i, b: 1 });
    await toolset.close();
  },
};

/**
 * @google/adk's MCPTool.runAsync: connects (spawns the server), calls, closes — every call. Its
 * optional peer dependency, the MCP SDK, resolves to bench's own. Undefined when the peer is not
 * installed and this is a smoke run.
 */
async function peerCall() {
  let peer;
  try {
    peer = loadPeer();
  } catch (error) {
    if (error?.code === 'PEER_NOT_INSTALLED') return undefined;
    throw error;
  }
  const { MCPToolset } = await peer.adk;
  const toolset = new MCPToolset({ type: 'StdioConnectionParams', serverParams: server });
  const sum = (await toolset.getTools()).find((tool) => tool.name === 'get-sum');
  const answer = await sum.runAsync({ args: { a: 2, b: 3 }, toolContext: {} });
  if (answer.content?.[0]?.text !== 'The sum of 2 and 3 is 5.') throw new Error(`@google/adk answered ${JSON.stringify(answer)}`);
  const ns = await measure(
    async (i) => {
      await sum.runAsync({ args: { a: i, b: 1 }, toolContext: {} });
    },
    { warmup: 1, rounds: counts(3, 1), minMs: 0, batch: counts(3, 1) },
  );
  await toolset.close();
  return { ns, version: peer.version };
}
