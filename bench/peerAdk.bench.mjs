// adkit against its peer, Google's ADK for TypeScript (@google/adk), in the same run: one function
// call through each framework's in-memory runner — the model asks for the tool, the tool runs
// (arguments validated: TypeBox for adkit, zod for ADK), the model answers. Both get the same
// minimal scripted model, so what is measured is the framework.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createUserContent, InMemoryRunner, LlmAgent } from '@adkit/flow';
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

  return [
    { case: 'adkit: one call through InMemoryRunner', ns: adkit, note: 'baseline of this benchmark' },
    {
      case: `@google/adk ${peer.version}: one call through InMemoryRunner`,
      ns: adk,
      ratio: adk / adkit,
      note: adk > adkit ? `adkit is ${(adk / adkit).toFixed(2)}× faster` : `adkit is ${(adkit / adk).toFixed(2)}× slower`,
    },
  ];
}
