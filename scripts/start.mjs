#!/usr/bin/env node
// `npm run demo` and `npm run example -- <name>` (issue #31): install and build quietly, then run.
//
//   node scripts/start.mjs demo [demo options]
//   node scripts/start.mjs example <name> [--offline] [options for the example]
//   node scripts/start.mjs pack        (npm run pack-packages: one tarball per packages/* in ./packed,
//                                       or in $ADKIT_PACK_DESTINATION)
//
// The install (`pnpm install --frozen-lockfile`, only when the lockfile is newer than
// node_modules) and the turbo build keep their output to themselves and print it only when they
// fail, so the first thing on screen is the demo or the example. Turbo's telemetry is off.
// `--offline` runs an example that needs an API key against a local replay server serving the
// recorded API traffic listed in the example's `replay.json` (what its tests replay).
// Plain Node, no dependencies: it runs before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const quietEnv = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', npm_config_update_notifier: 'false' };
const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Fails with one line on stderr and exit code 1. */
function fail(message) {
  console.error(message);
  process.exit(1);
}

/** Runs a command with its output held back; prints the output and exits when it fails. */
function quietly(what, command, args, cwd = root) {
  const status = process.stderr.isTTY ? `${what}…` : '';
  if (status) process.stderr.write(status);
  const run = spawnSync(command, args, { cwd, env: quietEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (status) process.stderr.write(`\r${' '.repeat(status.length)}\r`);
  if (run.status === 0) return;
  process.stderr.write(`${run.stdout ?? ''}${run.stderr ?? ''}`);
  fail(`${what} failed (${run.error ? run.error.message : `exit code ${run.status}`}): \`${[command, ...args].join(' ')}\` in ${cwd}`);
}

/** `pnpm install`, unless node_modules is newer than the lockfile (as after `npm test` or a demo). */
function installIfNeeded() {
  const marker = join(root, 'node_modules', '.modules.yaml');
  if (existsSync(marker) && existsSync(bin('turbo')) && statSync(marker).mtimeMs >= statSync(join(root, 'pnpm-lock.yaml')).mtimeMs) return;
  quietly('Installing dependencies (pnpm 12.4.2)', 'npx', ['-y', 'pnpm@12.4.2', 'install', '--frozen-lockfile']);
}

function build(filters) {
  quietly('Building', bin('turbo'), ['run', 'build', ...filters.map((f) => `--filter=${f}`), '--output-logs=errors-only']);
}

/** Runs node with `args`, inheriting the terminal; resolves to its exit code. Ctrl+C is the child's to handle. */
function runNode(args, { cwd, env = process.env }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: 'inherit' });
    const ignore = () => {}; // the terminal sends SIGINT to the child too; it decides when to stop
    process.on('SIGINT', ignore);
    process.on('SIGTERM', () => child.kill('SIGTERM'));
    child.on('exit', (code, signal) => {
      process.off('SIGINT', ignore);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** The examples `npm run example` knows: every folder of examples/ with a package.json. */
function exampleNames() {
  return readdirSync(join(root, 'examples'))
    .filter((name) => existsSync(join(root, 'examples', name, 'package.json')))
    .sort();
}

/** examples/tool-pack-template is a third-party pack: built and tested in a temp copy against the workspace's packages. */
async function runToolPack(dir) {
  const work = mkdtempSync(join(tmpdir(), 'adkit-tool-pack-'));
  try {
    cpSync(dir, work, { recursive: true, filter: (from) => !/[/\\](node_modules|dist)$/.test(from) });
    const modules = join(work, 'node_modules');
    mkdirSync(join(modules, '@adkit'), { recursive: true });
    mkdirSync(join(modules, '@types'), { recursive: true });
    // What `npm install` gives it from a registry: @adkit/flow and @adkit/tool (here the workspace's builds), typescript, @types/node.
    for (const pkg of ['flow', 'tool']) symlinkSync(join(root, 'packages', pkg), join(modules, '@adkit', pkg), 'dir');
    symlinkSync(join(root, 'node_modules', 'typescript'), join(modules, 'typescript'), 'dir');
    symlinkSync(join(root, 'node_modules', '@types', 'node'), join(modules, '@types', 'node'), 'dir');
    console.log('examples/tool-pack-template: tsc, then its own tests (node --test), against this repository\'s @adkit/flow and @adkit/tool');
    quietly('Compiling the pack', process.execPath, [join(modules, 'typescript', 'bin', 'tsc')], work);
    return await runNode(['--test'], { cwd: work });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Starts the replay server on the example's replay.json; the env points both SDKs at it. */
async function replayFor(dir, name) {
  const file = join(dir, 'replay.json');
  if (!existsSync(file)) fail(`examples/${name} needs no API key and always runs offline; run it without --offline.`);
  const { startReplayServer } = await import(pathToFileURL(join(root, 'internal', 'replay-server', 'dist', 'index.js')).href);
  const script = JSON.parse(readFileSync(file, 'utf8'));
  const server = await startReplayServer({ script });
  console.error(`(offline: replaying ${script.length} recorded API response${script.length === 1 ? '' : 's'} from a local server; no key needed)`);
  const env = { ...process.env, OPENAI_API_KEY: 'sk-offline-replay', OPENAI_BASE_URL: server.openaiBaseURL, GEMINI_API_KEY: 'offline-replay', GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl };
  delete env.GOOGLE_API_KEY;
  return { server, env };
}

async function runExample(name, rest) {
  const names = exampleNames();
  if (!name || name.startsWith('-')) fail(`Usage: npm run example -- <name> [--offline]. Examples: ${names.join(', ')}.`);
  if (!names.includes(name)) fail(`No example "${name}". Examples: ${names.join(', ')}.`);
  const dir = join(root, 'examples', name);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const offline = rest.includes('--offline');
  const args = rest.filter((arg) => arg !== '--offline');
  installIfNeeded();
  if (name === 'tool-pack-template') {
    build(['@adkit/flow...', '@adkit/tool...']);
    return runToolPack(dir);
  }
  build(offline ? [`${manifest.name}...`, '@adkit/replay-server...'] : [`${manifest.name}...`]);
  const replay = offline ? await replayFor(dir, name) : undefined;
  try {
    return await runNode([join(dir, 'dist', 'main.js'), ...args], { cwd: dir, env: replay?.env });
  } finally {
    await replay?.server.close();
  }
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'demo') {
  installIfNeeded();
  build(['@adkit/demo...']);
  process.exitCode = await runNode([join(root, 'apps', 'demo', 'dist', 'main.js'), ...rest], { cwd: root });
} else if (command === 'example') {
  process.exitCode = await runExample(rest[0], rest.slice(1));
} else if (command === 'pack') {
  installIfNeeded();
  build(['./packages/*']);
  const destination = process.env.ADKIT_PACK_DESTINATION || join(root, 'packed');
  mkdirSync(destination, { recursive: true });
  // pnpm turns each workspace: range into the real version as it packs.
  quietly('Packing', bin('pnpm'), ['-r', '--filter', './packages/*', 'pack', '--pack-destination', destination]);
  const tarballs = readdirSync(destination).filter((file) => file.endsWith('.tgz')).sort();
  console.log(`${tarballs.length} tarballs in ${destination}:\n${tarballs.map((file) => `  ${file}`).join('\n')}`);
} else {
  fail('Usage: node scripts/start.mjs demo [options] | example <name> [--offline] | pack');
}
