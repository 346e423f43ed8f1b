// The release test (issue #16): every package goes through the real release flow into a real
// registry, and is installed from it the way users will install it.
//
//   build → copy the working tree → `pnpm install` + `changeset version` on the copy →
//   Verdaccio on 127.0.0.1 (third-party packages proxied from `npm config get registry`) →
//   `pnpm publish -r` → metadata and README install lines, publint + attw on every tarball →
//   a newcomer's app: the root README's install line, its quick-start verbatim, `tsc --strict`,
//   run against the replay server (and the same from tarballs packed in a clone) → a third-party
//   pack (examples/tool-pack-template) tested, published, installed into a Gemini app from its
//   README and used by an agent. After the shared setup, the tests run concurrently.
//
// Nothing here touches the repository: the copy, registry storage and apps live in a temp folder.
// Bad input tried: a tarball with a types entry pointing at a missing file and no dist (the
// linters must flag it), `workspace:` ranges left in a published manifest, build info or sources
// leaking into a tarball, a README whose example imports a package its install line leaves out.
import { codeBlocks } from '@adkit/test-support';
import { fixtureJson, startReplayServer, type RecordedRequest, type ReplayServer, type ReplayStep } from '@adkit/replay-server';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureReleaseTools,
  expandFilePattern,
  importedPackages,
  installedFootprint,
  manifestProblems,
  markdownSection,
  npmInstallArgs,
  publishablePackages,
  runCommand,
  startLocalRegistry,
  throwawayCopy,
  upstreamRegistry,
  type LocalRegistry,
  type PublishablePackage,
  type ReleaseTools,
} from '../src/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const here = fileURLToPath(new URL('../', import.meta.url));
const templateDir = join(root, 'examples', 'tool-pack-template');
const templateManifest = JSON.parse(readFileSync(join(templateDir, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
// The newcomer type-checks with the TypeScript and Node types the repository itself pins.
const typeCheckDeps = [`typescript@${rootManifest.devDependencies.typescript}`, `@types/node@${rootManifest.devDependencies['@types/node']}`];
const workspaceEnv = { PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };

let work: string;
let copy: string;
let tools: ReleaseTools;
let registry: LocalRegistry | undefined;
let released: PublishablePackage[] = [];
const started = Date.now();

function log(step: string): void {
  console.log(`[release-test +${((Date.now() - started) / 1000).toFixed(1)} s] ${step}`);
}

/** npm against the local registry only, with the throwaway userconfig (no ~/.npmrc). */
function npm(args: string[], cwd: string, timeoutMs = 180_000) {
  return runCommand('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    timeoutMs,
    env: { npm_config_userconfig: registry!.userconfig, npm_config_registry: registry!.url, npm_config_update_notifier: 'false' },
  });
}

/** A fresh ESM app folder outside the workspace. */
function newApp(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name, private: true, type: 'module' }, null, 2)}\n`);
  return dir;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'adkit-release-'));
  copy = join(work, 'repo');
  log(`working in ${work}`);
  const [built, installedTools] = await Promise.all([
    runCommand('turbo', ['run', 'build', '--filter=./packages/*', '--output-logs=errors-only'], { cwd: root, env: workspaceEnv }),
    ensureReleaseTools({ manifestDir: join(here, 'tools') }),
  ]);
  tools = installedTools;
  log(`built packages/* (${built.ms} ms); release tools ${tools.installed ? 'installed' : 'reused'} in ${tools.dir}`);

  log(`copied ${throwawayCopy(root, copy)} files of the working tree, and every packages/*/dist`);
  await runCommand('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--ignore-scripts'], { cwd: copy, env: workspaceEnv });
  await runCommand(join(copy, 'node_modules', '.bin', 'changeset'), ['version'], { cwd: copy, env: workspaceEnv });
  released = publishablePackages(copy);
  log(`changeset version: ${released.map((pkg) => `${pkg.name}@${pkg.version}`).join(', ')}`);

  registry = await startLocalRegistry({
    verdaccio: tools.verdaccio,
    dir: join(work, 'registry'),
    uplink: upstreamRegistry(),
    localPackages: ['@adkit/*', templateManifest.name],
  });
  log(`Verdaccio answers on ${registry.url}`);
  const published = await runCommand('pnpm', ['publish', '-r', '--registry', registry.url, '--no-git-checks'], {
    cwd: copy,
    env: { ...workspaceEnv, npm_config_userconfig: registry.userconfig },
  });
  log(`pnpm publish -r: ${published.ms} ms`);
}, 420_000);

afterAll(async () => {
  await registry?.close();
  if (work && !process.env.ADKIT_RELEASE_TEST_KEEP) rmSync(work, { recursive: true, force: true });
  else if (work) log(`kept ${work} (ADKIT_RELEASE_TEST_KEEP is set)`);
});

describe('the release flow into a real registry', () => {
  it('publishes every non-private packages/* at its new version, with license, repository, engines, CHANGELOG, and a README whose install line covers its example', async () => {
    expect(released.length).toBeGreaterThan(0);
    expect(released.map((pkg) => pkg.name)).toEqual(publishablePackages(root).map((pkg) => pkg.name));
    expect(released.flatMap((pkg) => [...manifestProblems(pkg, { changelog: true }), ...installLineProblems(pkg)])).toEqual([]);
    for (const pkg of released) {
      const response = await fetch(`${registry!.url}${pkg.name.replace('/', '%2f')}`);
      expect(response.status, `${pkg.name} on the registry`).toBe(200);
      const packument = (await response.json()) as { 'dist-tags': Record<string, string>; versions: Record<string, Record<string, unknown>> };
      expect(packument['dist-tags'].latest, pkg.name).toBe(pkg.version);
      const manifest = packument.versions[pkg.version]!;
      // pnpm turned every workspace: range into a real one.
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'])
        for (const [name, range] of Object.entries((manifest[field] ?? {}) as Record<string, string>))
          expect(range, `${pkg.name} ${field}.${name}`).not.toMatch(/^workspace:/);
    }
  });

  it('ships only dist, README, CHANGELOG and LICENSE; publint and attw (ESM-only profile) find nothing', async () => {
    const tarballs = join(work, 'tarballs');
    mkdirSync(tarballs, { recursive: true });
    const specs = released.map((pkg) => `${pkg.name}@${pkg.version}`);
    const packed = await npm(['pack', ...specs, '--pack-destination', tarballs, '--json'], work);
    const files = (JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[]).map((entry) => ({
      tarball: join(tarballs, entry.filename.replace(/^@/, '').replace('/', '-')),
      paths: entry.files.map((file) => file.path),
    }));
    expect(files).toHaveLength(released.length);
    const findings: string[] = [];
    for (const { tarball, paths } of files) {
      const name = basename(tarball);
      for (const needed of ['README.md', 'CHANGELOG.md', 'dist/index.js', 'dist/index.d.ts'])
        if (!paths.includes(needed)) findings.push(`${name}: ${needed} is not in the tarball`);
      for (const path of paths)
        if (!/^(dist\/|README\.md$|CHANGELOG\.md$|LICENSE$|package\.json$)/.test(path) || path.endsWith('.tsbuildinfo'))
          findings.push(`${name}: ${path} should not be published`);
    }

    // A broken package, so this check is known to fail when it should: types pointing at a file
    // that is not packed, and no dist at all.
    const broken = join(work, 'broken');
    mkdirSync(join(broken, 'src'), { recursive: true });
    writeFileSync(join(broken, 'src', 'index.js'), 'export const x = 1;\n');
    writeFileSync(
      join(broken, 'package.json'),
      JSON.stringify({ name: 'broken-pack', version: '1.0.0', type: 'module', exports: { '.': { default: './dist/index.js', types: './dist/index.d.ts' } }, files: ['src'] }),
    );
    const brokenPack = await runCommand('npm', ['pack', '--pack-destination', tarballs, '--json', '--loglevel=error'], { cwd: broken });
    const brokenTarball = join(tarballs, (JSON.parse(brokenPack.stdout) as { filename: string }[])[0]!.filename);

    const lint = await runCommand(process.execPath, [join(here, 'scripts', 'lintTarballs.mjs'), tools.dir, ...files.map((f) => f.tarball), brokenTarball], {
      cwd: work,
    });
    const reports = lint.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { file: string; publint: { type: string; message: string }[]; attw: { types: boolean; failed: boolean; problems: unknown[] } });
    const brokenReport = reports.pop()!;
    expect(brokenReport.publint.map((m) => m.type)).toContain('error');
    expect(brokenReport.attw.failed).toBe(true);

    for (const report of reports) {
      const name = basename(report.file);
      for (const message of report.publint) findings.push(`${name}: publint ${message.type}: ${message.message}`);
      if (report.attw.failed) findings.push(`${name}: attw: ${report.attw.types ? JSON.stringify(report.attw.problems) : 'no type declarations'}`);
    }
    // attw's own table for each package it failed, for the log.
    for (const report of reports.filter((r) => r.attw.failed)) {
      const table = await runCommand(tools.attw, ['--profile', 'esm-only', '--format', 'ascii', report.file], { cwd: work }).then(
        (output) => output.stdout,
        (error: Error) => error.message,
      );
      console.log(table);
    }
    expect(findings).toEqual([]);
    expect(reports).toHaveLength(released.length);
    log(`publint (strict) and attw (esm-only) clean for ${reports.length} tarballs`);
  });
});

// The tests run concurrently (vitest.release.config.ts); the install from a clone reuses the
// newcomer's compiled quick-start.
describe('installed as users will', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const installSection = markdownSection(readme, 'Install') ?? '';
  const [fromRegistry, fromClone] = npmInstallArgs(installSection);
  const quickStart = codeBlocks(readme, 'ts')[0]!;
  let compiled!: (js: string) => void;
  let notCompiled!: (error: unknown) => void;
  const compiledQuickStart = new Promise<string>((resolve, reject) => ((compiled = resolve), (notCompiled = reject)));
  compiledQuickStart.catch(() => {}); // the newcomer's test reports the failure

  it('the root README install line from the registry, then its quick-start verbatim: tsc --strict, and a run against recorded OpenAI traffic', async () => {
    expect(fromRegistry, 'README.md has an "## Install" section with an `npm install` line').toBeDefined();
    expect(fromRegistry).toEqual(expect.arrayContaining(['@adkit/flow', '@adkit/function-tool', '@adkit/model-openai']));
    expect(importedPackages(quickStart).filter((name) => !fromRegistry!.includes(name)), 'quick-start imports left out of the install line').toEqual([]);

    const app = newApp('newcomer');
    const installed = await npm(['install', ...fromRegistry!], app);
    const footprint = installedFootprint(app);
    log(`newcomer: \`npm install ${fromRegistry!.join(' ')}\` took ${installed.ms} ms: ${footprint.packages} packages, ${megabytes(footprint.bytes)} in node_modules`);
    expect(footprint.packages).toBeGreaterThanOrEqual(fromRegistry!.length);

    writeFileSync(join(app, 'main.ts'), quickStart);
    try {
      await npm(['install', '--save-dev', ...typeCheckDeps], app);
      const checked = await runCommand(join(app, 'node_modules', '.bin', 'tsc'), tscStrict, { cwd: app });
      log(`newcomer: tsc --strict (no skipLibCheck) on the quick-start: ${checked.ms} ms`);
      compiled(readFileSync(join(app, 'out', 'main.js'), 'utf8'));
    } catch (error) {
      notCompiled(error);
      throw error;
    }
    await expectQuickStartRuns(app);
  });

  it('the README way from a clone: pnpm packs packages/*, npm installs the tarballs, the quick-start runs', async () => {
    expect(fromClone, 'the Install section has a second `npm install` line, for tarballs packed from a clone').toBeDefined();
    expect(installSection).toContain('pnpm@12.4.2 -r --filter "./packages/*" pack --pack-destination "$PWD/packed"');
    const packed = join(work, 'packed');
    await runCommand('pnpm', ['-r', '--filter', './packages/*', 'pack', '--pack-destination', packed], { cwd: root, env: workspaceEnv });
    const specs = fromClone!.flatMap((word) => {
      const at = word.indexOf('packed/');
      return at < 0 ? [word] : expandFilePattern(packed, word.slice(at + 'packed/'.length)).map((file) => join(packed, file));
    });
    const app = newApp('from-clone');
    await npm(['install', ...specs], app);
    mkdirSync(join(app, 'out'));
    writeFileSync(join(app, 'out', 'main.js'), await compiledQuickStart);
    await expectQuickStartRuns(app);
  });

  it('a third-party pack: examples/tool-pack-template passes its own tests against the published packages, is published, and an agent on Gemini uses it', async () => {
    // Its adkit ranges must admit what this release publishes, or every pack written against the
    // previous release breaks: then update the template (and say so in the changeset).
    for (const [name, range] of Object.entries(templateManifest.dependencies).filter(([name]) => name.startsWith('@adkit/'))) {
      const pkg = released.find((p) => p.name === name);
      expect(pkg, `${name} is published`).toBeDefined();
      const admitted = await runCommand(process.execPath, ['-e', satisfiesScript, pkg!.version, range], { cwd: tools.dir }).then(
        () => true,
        () => false,
      );
      expect(admitted, `examples/tool-pack-template asks for ${name}@${range}; this release publishes ${pkg!.version}`).toBe(true);
    }

    const pack = join(work, 'tool-pack');
    cpSync(templateDir, pack, { recursive: true, filter: (from) => !/[/\\](node_modules|dist)$/.test(from) });
    const installed = await npm(['install'], pack);
    const tested = await npm(['test'], pack);
    expect(tested.stdout).toMatch(/# pass 3\b/);
    expect(tested.stdout).toMatch(/# fail 0\b/);
    await npm(['publish'], pack);
    log(`tool pack: npm install ${installed.ms} ms, its tests ${tested.ms} ms, published ${templateManifest.name}@${templateManifest.version}`);

    const readme = readFileSync(join(templateDir, 'README.md'), 'utf8');
    const packages = npmInstallArgs(markdownSection(readme, 'Install') ?? '')[0];
    expect(packages).toEqual(expect.arrayContaining([templateManifest.name, '@adkit/model-gemini']));
    const example = codeBlocks(readme, 'ts')[0]!;
    expect(importedPackages(example).filter((name) => !packages!.includes(name)), 'example imports left out of the install line').toEqual([]);

    const app = newApp('gemini-app');
    await npm(['install', ...packages!], app);
    const footprint = installedFootprint(app);
    log(`gemini app: ${footprint.packages} packages, ${megabytes(footprint.bytes)} in node_modules`);
    writeFileSync(join(app, 'main.ts'), example);
    await npm(['install', '--save-dev', ...typeCheckDeps], app);
    await runCommand(join(app, 'node_modules', '.bin', 'tsc'), tscStrict, { cwd: app });

    // The recorded Gemini answer (gemini--function-call.1.json) calling the pack's tool, then the
    // same recording as a text answer.
    const recorded = fixtureJson('gemini--function-call.1.json') as { candidates: [{ content: { role: string; parts: unknown[] } }] };
    const call = structuredClone(recorded);
    call.candidates[0].content.parts = [{ functionCall: { name: 'convert_temperature', args: { value: 21, from: 'C', to: 'F' } } }];
    const answer = structuredClone(recorded);
    answer.candidates[0].content.parts = [{ text: '21 °C is 69.8 °F.' }];
    const { lines, requests } = await runAgainstReplay(app, [
      { endpoint: ':generateContent', json: call },
      { endpoint: ':generateContent', json: answer },
    ], (server) => ({ GEMINI_API_KEY: 'AIza-replay-test', GOOGLE_API_KEY: undefined, GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl }));
    const events = lines.map((line) => ({ author: line.slice(0, line.indexOf(' ')), content: JSON.parse(line.slice(line.indexOf(' ') + 1)) as unknown }));
    const callId = (events[0]?.content as { parts?: [{ functionCall?: { id?: string } }] } | undefined)?.parts?.[0].functionCall?.id;
    expect(callId).toMatch(/^adk-/); // Gemini sent no id; the flow gave the call one
    expect(events).toEqual([
      { author: 'assistant', content: { role: 'model', parts: [{ functionCall: { id: callId, name: 'convert_temperature', args: { value: 21, from: 'C', to: 'F' } } }] } },
      { author: 'assistant', content: { role: 'user', parts: [{ functionResponse: { id: callId, name: 'convert_temperature', response: { value: 69.8, unit: 'F' } } }] } },
      { author: 'assistant', content: { role: 'model', parts: [{ text: '21 °C is 69.8 °F.' }] } },
    ]);
    const firstRequest = requests[0]!.body as { tools: { functionDeclarations: { name: string }[] }[]; systemInstruction: { parts: { text: string }[] } };
    expect(firstRequest.tools[0]!.functionDeclarations.map((d) => d.name)).toEqual(['convert_temperature', 'convert_length']);
    expect(JSON.stringify(firstRequest.systemInstruction)).toContain('Convert units with your tools');
  });
});

/**
 * What a package README's install block (its first ```sh block) leaves out: the package itself,
 * its peer dependencies, and each package its example (first ```ts block) imports.
 */
function installLineProblems(pkg: PublishablePackage): string[] {
  const file = join(pkg.dir, 'README.md');
  if (!existsSync(file)) return []; // manifestProblems reports it
  const readme = readFileSync(file, 'utf8');
  const installed = npmInstallArgs(codeBlocks(readme, 'sh')[0] ?? '').flat();
  if (installed.length === 0) return [`packages/${pkg.folder}/README.md: no \`npm install\` line in its first sh block.`];
  const needed = [pkg.name, ...Object.keys((pkg.manifest.peerDependencies ?? {}) as Record<string, string>), ...importedPackages(codeBlocks(readme, 'ts')[0] ?? '')];
  return [...new Set(needed)]
    .filter((name) => !installed.includes(name))
    .map((name) => `packages/${pkg.folder}/README.md: the install line leaves out ${name} (${name === pkg.name ? 'the package itself' : 'a peer dependency or an import of the example'}).`);
}

const tscStrict = ['--strict', '--module', 'nodenext', '--target', 'es2022', '--types', 'node', '--outDir', 'out', 'main.ts'];

/**
 * Runs the compiled quick-start (`out/main.js`) against the replay server: the recorded Chat
 * Completions answer openai-chat--tool-call.1.json with its tool call renamed to the quick-start's
 * tool, then the same recording as a text answer.
 */
async function expectQuickStartRuns(app: string): Promise<void> {
  const recorded = fixtureJson('openai-chat--tool-call.1.json') as { choices: [{ finish_reason: string; message: Record<string, unknown> }] };
  const call = structuredClone(recorded);
  const toolCall = (call.choices[0].message.tool_calls as [{ id: string; function: Record<string, string> }])[0];
  toolCall.function = { name: 'get_weather', arguments: '{"city":"Lisbon"}' };
  const answer = structuredClone(recorded);
  answer.choices[0].finish_reason = 'stop';
  answer.choices[0].message = { role: 'assistant', content: 'It is 21 °C in Lisbon.', refusal: null, annotations: [] };
  const { lines, requests } = await runAgainstReplay(app, [
    { endpoint: '/chat/completions', json: call },
    { endpoint: '/chat/completions', json: answer },
  ], (server) => ({ OPENAI_API_KEY: 'sk-replay-test', OPENAI_BASE_URL: server.openaiBaseURL }));
  expect(lines).toEqual([
    `assistant {"role":"model","parts":[{"functionCall":{"id":"${toolCall.id}","name":"get_weather","args":{"city":"Lisbon"}}}]}`,
    `assistant {"role":"user","parts":[{"functionResponse":{"id":"${toolCall.id}","name":"get_weather","response":{"city":"Lisbon","celsius":21}}}]}`,
    'assistant {"role":"model","parts":[{"text":"It is 21 °C in Lisbon."}]}',
  ]);
  expect(requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
  expect(requests[0]!.body).toMatchObject({ model: 'gpt-4.1-mini', messages: [{ role: 'system' }, { role: 'user', content: 'Weather in Lisbon?' }] });
  expect(requests[1]!.body).toMatchObject({
    messages: [{}, {}, { role: 'assistant' }, { role: 'tool', tool_call_id: toolCall.id, content: '{"city":"Lisbon","celsius":21}' }],
  });
}

/**
 * Runs an app's compiled `out/main.js` as `node` would, with the SDK pointed at a replay server
 * serving `script` (`env` gives the variables); the server must have served every step and seen
 * nothing else. Resolves to the lines the app printed and the requests the server received.
 */
async function runAgainstReplay(
  app: string,
  script: ReplayStep[],
  env: (server: ReplayServer) => Record<string, string | undefined>,
): Promise<{ lines: string[]; requests: RecordedRequest[] }> {
  const server = await startReplayServer({ script });
  try {
    const run = await runCommand(process.execPath, ['out/main.js'], { cwd: app, timeoutMs: 60_000, env: env(server) });
    server.assertDone();
    return { lines: run.stdout.trim().split('\n'), requests: server.requests };
  } finally {
    await server.close();
  }
}

// semver's own rule (the release tools install semver through Verdaccio): exits 1 when
// process.argv[1] does not satisfy process.argv[2].
const satisfiesScript = "process.exitCode = require('semver').satisfies(process.argv[1], process.argv[2]) ? 0 : 1";
