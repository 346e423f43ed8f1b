// The peer the benchmarks compare adkit with, Google's ADK for TypeScript (@google/adk), and the one
// scripted model both frameworks get, so that what a benchmark measures is the framework.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { smoke } from './measure.mjs';

/** Where the peer is installed: outside the pnpm workspace, so `npm test` never installs it. */
export const peerDir = fileURLToPath(new URL('./peer/', import.meta.url));

/** True when bench/peer holds an installed @google/adk. */
export function peerInstalled() {
  return existsSync(`${peerDir}node_modules/@google/adk/package.json`);
}

/**
 * Installs the peers with npm on first use (the npm registry only; pinned by bench/peer's
 * package.json and lockfile); later runs reuse them. A smoke run never installs: it throws an
 * error with code `PEER_NOT_INSTALLED` instead. Returns `{adk, zod, version}`, the first two as
 * promises of the modules.
 */
export function loadPeer() {
  if (!peerInstalled()) {
    if (smoke) throw Object.assign(new Error('@google/adk is not installed in bench/peer, and a smoke run never installs it'), { code: 'PEER_NOT_INSTALLED' });
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

/** The final answer of every scripted turn. */
export const ANSWER = 'done';

/**
 * The scripted model's reply to a request, the same for both frameworks and safe for concurrent
 * sessions: after a function response it answers `ANSWER`; otherwise it asks for `calls` (an
 * array of `{name, args}`), or answers at once when there are none. Each reply gets call objects
 * of its own: @google/adk writes ids into them, and a reused id would be a new conversation.
 */
export function scriptedReply(request, calls) {
  const last = request.contents.at(-1);
  if (calls.length === 0 || last?.parts?.some((part) => part.functionResponse))
    return { content: { role: 'model', parts: [{ text: ANSWER }] } };
  return { content: { role: 'model', parts: calls.map(({ name, args }) => ({ functionCall: { name, args } })) } };
}

/** An adkit `Model` that replies with `scriptedReply(request, calls)`. */
export function adkitScriptedModel(calls) {
  return {
    model: 'scripted',
    async *generateContent(request) {
      yield scriptedReply(request, calls);
    },
  };
}

/** An @google/adk `BaseLlm` that replies with `scriptedReply(request, calls)`. */
export function peerScriptedModel(adk, calls) {
  class ScriptedPeerModel extends adk.BaseLlm {
    constructor() {
      super({ model: 'scripted' });
    }
    async *generateContentAsync(request) {
      yield scriptedReply(request, calls);
    }
    async connect() {
      throw new Error('not used');
    }
  }
  return new ScriptedPeerModel();
}

/**
 * Runs one turn through a runner of either framework (both have `runAsync({userId, sessionId,
 * newMessage})`) and checks that it ended with `ANSWER`.
 */
export async function runTurn(runner, sessionId, newMessage) {
  let last;
  for await (const event of runner.runAsync({ userId: 'u', sessionId, newMessage })) last = event;
  if (last?.content?.parts?.[0]?.text !== ANSWER) throw new Error(`the turn on ${sessionId} ended unexpectedly: ${JSON.stringify(last)}`);
}

/** How adkit compares with the peer, in words: `adkit is 4.80× faster`. */
export function versus(adkitNs, peerNs) {
  if (adkitNs <= 0) return 'adkit adds nothing measurable';
  return peerNs >= adkitNs ? `adkit is ${(peerNs / adkitNs).toFixed(2)}× faster` : `adkit is ${(adkitNs / peerNs).toFixed(2)}× slower`;
}

/** The user's message of every turn, as plain content both frameworks accept. */
export const userMessage = { role: 'user', parts: [{ text: 'go' }] };
