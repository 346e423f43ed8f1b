// What a user installs: @adkit/flow + @adkit/function-tool + @adkit/model-openai, packed with
// `pnpm pack` (as they would be published; their workspace dependencies packed too) and installed
// with npm from the tarballs into an empty folder. Only their outside dependencies come from the npm
// registry (npm's cache first). Disk use is counted like `du` (allocated blocks), per package,
// against @google/adk as npm installed it into bench/peer. Issue #18: adkit's own packages and
// their non-SDK dependencies ≤ 10 MB (the peer: 154 MB, 173 packages). A smoke run packs only.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatBytes, smoke } from './measure.mjs';
import { loadPeer, peerDir } from './peer.mjs';

export const title = 'install size: flow + function-tool + model-openai from packed tarballs vs @google/adk';

/** What the user asks for. */
const WANTED = ['@adkit/flow', '@adkit/function-tool', '@adkit/model-openai'];
const root = fileURLToPath(new URL('../', import.meta.url));
const pnpm = join(root, 'node_modules', '.bin', 'pnpm');

/** The workspace folder of each @adkit package, by name. */
function workspacePackages() {
  const byName = new Map();
  for (const folder of readdirSync(join(root, 'packages'))) {
    const file = join(root, 'packages', folder, 'package.json');
    if (existsSync(file)) byName.set(JSON.parse(readFileSync(file, 'utf8')).name, join(root, 'packages', folder));
  }
  return byName;
}

/** `names` and every workspace package they depend on, by name. */
function withWorkspaceDependencies(names, byName) {
  const all = new Set();
  const visit = (name) => {
    if (all.has(name)) return;
    all.add(name);
    const manifest = JSON.parse(readFileSync(join(byName.get(name), 'package.json'), 'utf8'));
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) if (range.startsWith('workspace:')) visit(dependency);
  };
  names.forEach(visit);
  return [...all];
}

/** Disk use of a path like `du`: allocated 512-byte blocks; `skip(path)` leaves a folder out. */
function diskUse(path, skip = () => false) {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.blocks * 512;
  let total = stat.blocks * 512;
  for (const entry of readdirSync(path)) {
    const child = join(path, entry);
    if (!skip(child)) total += diskUse(child, skip);
  }
  return total;
}

/**
 * Every package npm installed under `app/node_modules` (nested copies too), from its
 * `.package-lock.json`: `{name, path, bytes, dependencies}`, bytes without nested node_modules.
 */
export function installedPackages(app) {
  const lock = JSON.parse(readFileSync(join(app, 'node_modules', '.package-lock.json'), 'utf8'));
  return Object.entries(lock.packages)
    .filter(([path]) => path.startsWith('node_modules/'))
    .map(([path, entry]) => ({
      name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
      path,
      bytes: diskUse(join(app, path), (child) => child.endsWith('/node_modules')),
      dependencies: Object.keys({ ...entry.dependencies, ...entry.peerDependencies }),
    }));
}

/** The names reachable from `start` through dependencies, among `installed`. */
function closure(start, installed) {
  const byName = new Map(installed.map((p) => [p.name, p]));
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name) || !byName.has(name)) return;
    seen.add(name);
    byName.get(name).dependencies.forEach(visit);
  };
  start.forEach(visit);
  return seen;
}

const sum = (packages) => packages.reduce((total, p) => total + p.bytes, 0);

export async function run() {
  const peer = loadPeer();
  const dir = mkdtempSync(join(tmpdir(), 'adkit-bench-install-'));
  try {
    const byName = workspacePackages();
    const packed = withWorkspaceDependencies(WANTED, byName);
    const packs = join(dir, 'packs');
    mkdirSync(packs);
    for (const name of packed) execFileSync(pnpm, ['pack', '--pack-destination', packs], { cwd: byName.get(name), stdio: 'pipe' });
    const tarballs = readdirSync(packs).map((file) => join(packs, file));
    const tarballBytes = tarballs.reduce((total, file) => total + lstatSync(file).size, 0);
    const rows = [{ case: `packed tarballs of ${packed.join(', ')}`, bytes: tarballBytes, note: `${tarballs.length} tarballs (compressed)` }];
    if (smoke) return rows;

    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', '--loglevel=error', ...tarballs], { cwd: app, stdio: 'pipe' });
    const installed = installedPackages(app);
    // The provider SDKs adkit's adapters take as peers (openai), with everything they pull in.
    const peersOf = packed.flatMap((name) => Object.keys(JSON.parse(readFileSync(join(byName.get(name), 'package.json'), 'utf8')).peerDependencies ?? {}));
    const sdk = closure(peersOf, installed);
    const ours = installed.filter((p) => !sdk.has(p.name));
    const sdks = installed.filter((p) => sdk.has(p.name));
    const adkitOnly = installed.filter((p) => p.name.startsWith('@adkit/'));
    const total = diskUse(join(app, 'node_modules'));
    const peerTotal = diskUse(join(peerDir, 'node_modules'));
    const peerCount = installedPackages(peerDir).length;
    const list = (packages) => packages.map((p) => `${p.name} ${formatBytes(p.bytes)}`).join(', ');
    rows.push(
      { id: 'install.adkit', case: 'adkit: its packages and their non-SDK dependencies', bytes: sum(ours), packages: ours.length, note: list(ours) },
      { case: 'adkit: of which the @adkit packages', bytes: sum(adkitOnly), packages: adkitOnly.length, note: 'for information' },
      { case: `the provider SDKs they take as peers (${[...sdk].join(', ')})`, bytes: sum(sdks), packages: sdks.length, note: list(sdks) },
      { id: 'install.total', case: 'adkit: the whole node_modules', bytes: total, packages: installed.length },
      { id: 'install.peer', case: `@google/adk ${peer.version}: the whole node_modules (npm, bench/peer)`, bytes: peerTotal, packages: peerCount, ratio: peerTotal / total },
    );
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
