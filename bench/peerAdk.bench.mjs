// adkit against its peer, Google's ADK for TypeScript (@google/adk), in the same run:
// - one function call through each framework's in-memory runner — the model asks for the tool, the
//   tool runs (arguments validated: TypeBox for adkit, zod for ADK), the model answers; both get the
//   same minimal scripted model, so what is measured is the framework;
// - one validated function-tool call on its own (a 5-field schema, valid arguments).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createUserContent, InMemoryRunner, LlmAgent } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { measure } from './measure.mjs';

export const title = 'peer: one function call through adkit vs @google/adk';

const ROUNDS = 7;
const TURNS_PER_ROUND = 300;
const WARMUP = 300;
const TURNS = WARMUP + ROUNDS * TURNS_PER_ROUND;
const peerDir = fileURLToPath(new URL('./peer/', import.meta.url));

/** Installs the peers with npm on first use (the npm registry only); later runs reuse them. */
function loadPeer() {
  if (!existsSync(`${peerDir}node_modules/@google/adk/package.json`)) {
    process.stdout.write('installing @google/adk into bench/peer (first run only) …\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: peerDir, stdio: 'inherit' });
  }
  const require = createRequire(`${peerDir}package.json`);
  return {
    adk: import(pathToFileURL(require.resolve('@google/adk')).href.replace('/cjs/', '/esm/')),
    zod: import(pathToFileURL(require.resolve('zod')).href),
    version: require('@google/adk/package.json').version,
  };
}

/** The model's two turns: call `add`, then answer. */
const turnOf = (n) =>
  n % 2 === 0
    ? { content: { role: 'model', parts: [{ functionCall: { name: 'add', args: { a: n, b: 1 } } }] } }
    : { content: { role: 'model', parts: [{ text: 'done' }] } };

async function timeRunner(runner, newMessage) {
  for (let i = 0; i < TURNS; i++) await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId: `s${i}` });
  return measure(
    async (i) => {
      let last;
      for await (const event of runner.runAsync({ userId: 'u', sessionId: `s${i}`, newMessage })) last = event;
      if (last?.content?.parts?.[0]?.text !== 'done') throw new Error(`turn ${i} ended unexpectedly: ${JSON.stringify(last)}`);
    },
    { warmup: WARMUP, rounds: ROUNDS, minMs: 0, batch: TURNS_PER_ROUND },
  );
}

export async function run() {
  const peer = loadPeer();
  const [{ BaseLlm, FunctionTool, InMemoryRunner: AdkRunner, LlmAgent: AdkAgent }, { z }] = await Promise.all([peer.adk, peer.zod]);
  const handler = async ({ a, b }) => ({ sum: a + b });

  let adkitCalls = 0;
  const adkitModel = { model: 'scripted', async *generateContent() { yield turnOf(adkitCalls++); } };
  const add = functionTool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
    execute: handler,
  });
  const adkit = await timeRunner(
    new InMemoryRunner({ agent: new LlmAgent({ name: 'calculator', model: adkitModel, tools: [add] }), appName: 'bench' }),
    createUserContent('add'),
  );

  class ScriptedPeerModel extends BaseLlm {
    calls = 0;
    constructor() {
      super({ model: 'scripted' });
    }
    async *generateContentAsync() {
      yield turnOf(this.calls++);
    }
    async connect() {
      throw new Error('not used');
    }
  }
  const peerAdd = new FunctionTool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: handler,
  });
  const adk = await timeRunner(
    new AdkRunner({ agent: new AdkAgent({ name: 'calculator', model: new ScriptedPeerModel(), tools: [peerAdd] }), appName: 'bench' }),
    { role: 'user', parts: [{ text: 'add' }] },
  );

  const [adkitTool, adkTool] = await timeToolCalls(FunctionTool, z);

  return [
    { case: 'adkit: validated functionTool call', ns: adkitTool, note: 'baseline of the next row' },
    {
      case: `@google/adk ${peer.version}: validated FunctionTool call`,
      ns: adkTool,
      ratio: adkTool / adkitTool,
      note: faster(adkTool, adkitTool),
    },
    { case: 'adkit: one call through InMemoryRunner', ns: adkit, note: 'baseline of the next row' },
    {
      case: `@google/adk ${peer.version}: one call through InMemoryRunner`,
      ns: adk,
      ratio: adk / adkit,
      note: faster(adk, adkit),
    },
  ];
}

function faster(peerNs, adkitNs) {
  return peerNs > adkitNs ? `adkit is ${(peerNs / adkitNs).toFixed(2)}× faster` : `adkit is ${(adkitNs / peerNs).toFixed(2)}× slower`;
}

/** A validated call of the same 5-field tool in each framework (TypeBox vs zod), valid arguments. */
async function timeToolCalls(FunctionTool, z) {
  const handler = async (args) => ({ greeting: args.name, next: args.age + 1 });
  const adkitTool = functionTool({
    name: 'profile',
    description: 'Summarises a profile.',
    parameters: Type.Object({
      name: Type.String({ minLength: 1 }),
      age: Type.Integer({ minimum: 0, maximum: 150 }),
      score: Type.Number(),
      active: Type.Boolean(),
      tags: Type.Array(Type.String(), { maxItems: 10 }),
    }),
    execute: handler,
  });
  const adkTool = new FunctionTool({
    name: 'profile',
    description: 'Summarises a profile.',
    parameters: z.object({
      name: z.string().min(1),
      age: z.number().int().min(0).max(150),
      score: z.number(),
      active: z.boolean(),
      tags: z.array(z.string()).max(10),
    }),
    execute: handler,
  });
  const pool = Array.from({ length: 1024 }, (_, i) => ({ name: `n${i}`, age: i % 150, score: i / 7, active: i % 2 === 0, tags: ['a', `t${i}`] }));
  const ctx = createToolContext();
  let sink = 0;
  const adkitNs = await measure(async (i) => {
    sink += (await adkitTool.run(ctx, pool[i & 1023])).next;
  });
  const adkNs = await measure(async (i) => {
    sink += (await adkTool.runAsync({ args: pool[i & 1023] })).next;
  });
  if (sink === 0) throw new Error('unreachable');
  return [adkitNs, adkNs];
}
