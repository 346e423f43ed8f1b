// The release test (issues #16, #31): every package goes through the real release flow into a
// real registry, and is installed from it the way users will install it; the root README is
// followed word for word on a fresh folder.
//
//   build → copy the working tree → `pnpm install` + `changeset version` on the copy →
//   Verdaccio on 127.0.0.1 (third-party packages proxied from `npm config get registry`) →
//   `pnpm publish -r` → metadata and README install lines, publint + attw on every tarball →
//   a newcomer's app, as the README's Install section says: `npm run pack-packages`, `npm init -y`
//   with `"type": "module"`, the tarballs, its tsconfig.json, `npx tsc`, the quick-start against
//   the replay server (and with the server down: one error line, exit 1); the same app from the
//   registry line → the demo and every example by the command the README gives (offline with
//   `--offline`, and without their key: one line, exit 1) → a third-party pack
//   (examples/tool-pack-template) tested, published, installed into a Gemini app from its README
//   and used by an agent. After the shared setup, the tests run concurrently.
//
// The copy, registry storage and apps live in a temp folder. In the repository itself only what
// its README's commands write: build output, and the files of examples (all ignored by git).
// Bad input tried: a tarball with a types entry pointing at a missing file and no dist (the
// linters must flag it), `workspace:` ranges left in a published manifest, build info or sources
// leaking into a tarball, a README whose example imports a package its install line leaves out,
// an example that prints an error or `undefined` and exits 0, a model server that is down.
import { codeBlocks } from '@adkit/test-support';
import { fixtureJson, startReplayServer, type RecordedRequest, type ReplayServer, type ReplayStep } from '@adkit/replay-server';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  ensureReleaseTools,
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

/** The environment for npm and npx against the local registry only, with the throwaway userconfig (no ~/.npmrc). */
function npmEnv(): Record<string, string> {
  return {
    npm_config_userconfig: registry!.userconfig,
    npm_config_registry: registry!.url,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_loglevel: 'error',
  };
}

/** npm against the local registry only, with the throwaway userconfig (no ~/.npmrc). */
function npm(args: string[], cwd: string, timeoutMs = 180_000) {
  return runCommand('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, timeoutMs, env: npmEnv() });
}

/** The command lines of a README sh block, without comments and blank lines. */
function shellLines(block: string): string[] {
  return block
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line.length > 0);
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

// The tests run concurrently (vitest.release.config.ts).
describe('installed as users will', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const installSection = markdownSection(readme, 'Install') ?? '';
  // The Install section, in order: pack in the clone; make the app and install the tarballs; run;
  // once published, the registry line (#31).
  const [packBlock, appBlock, runBlock, registryBlock] = codeBlocks(installSection, 'sh').map(shellLines);
  const tsconfig = codeBlocks(installSection, 'json')[0];
  const quickStart = codeBlocks(readme, 'ts')[0]!;
  // Two turbo runs in one repository at once could rewrite the same dist files under each other:
  // the examples wait until the pack step's build is done.
  let packStepDone!: () => void;
  const packedInRepository = new Promise<void>((resolve) => (packStepDone = resolve));

  it('the root README word for word on a fresh folder: npm run pack-packages, npm init -y with type=module, the tarballs, its tsconfig.json (tsc --strict, types: node), then the quick-start against a local OpenAI-compatible server, and with that server down', async () => {
    onTestFinished(packStepDone); // however this test ends
    expect(packBlock, 'the Install section starts with the pack command').toEqual(['npm run pack-packages']);
    expect(appBlock?.[0], 'the app is made next to the clone').toBe('cd .. && mkdir my-app && cd my-app');
    expect(appBlock).toContain('npm init -y && npm pkg set type=module');
    expect(tsconfig, 'the Install section shows the tsconfig.json').toBeDefined();
    expect(JSON.parse(tsconfig!)).toMatchObject({ compilerOptions: { strict: true, types: ['node'] } });
    expect(runBlock).toEqual(['npx tsc', 'OPENAI_API_KEY=sk-... node dist/main.js']);
    const tarballLine = appBlock!.find((line) => line.includes('packed/'))!;
    expect(importedPackages(quickStart).filter((name) => !tarballLine.includes(name.replace('@adkit/', ''))), 'quick-start imports the tarball line leaves out').toEqual([]);

    // The clone is the repository itself (already built); the tarballs go to <work>/adkit/packed.
    const clone = join(work, 'adkit');
    mkdirSync(clone, { recursive: true });
    const packed = await runCommand('npm', ['run', 'pack-packages'], { cwd: root, env: { ...workspaceEnv, ADKIT_PACK_DESTINATION: join(clone, 'packed') } }).finally(packStepDone);
    expect(packed.stdout).toMatch(new RegExp(`${released.length} tarballs in `));
    // `cd ..` from the clone: the app is <work>/my-app. npm gets typebox, openai and TypeScript through the local registry.
    const setUp = await runCommand('bash', ['-euc', appBlock!.join('\n')], { cwd: clone, env: npmEnv(), timeoutMs: 240_000 });
    const app = join(work, 'my-app');
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { type?: string; dependencies: Record<string, string> };
    expect(manifest.type).toBe('module');
    expect(Object.keys(manifest.dependencies)).toEqual(expect.arrayContaining(['@adkit/flow', '@adkit/function-tool', '@adkit/model-openai', 'typebox']));
    log(`newcomer from tarballs: the README's app block took ${setUp.ms} ms: ${installedFootprint(app).packages} packages`);

    writeFileSync(join(app, 'tsconfig.json'), tsconfig!);
    writeFileSync(join(app, 'main.ts'), quickStart);
    const checked = await runCommand('bash', ['-euc', runBlock![0]!], { cwd: app, env: npmEnv() });
    log(`newcomer: npx tsc with the README's tsconfig.json (strict, no skipLibCheck): ${checked.ms} ms`);
    await expectQuickStartRuns(app);
    await expectQuickStartFailsCleanly(app);
  });

  it("the README's registry line, once published, in the same kind of app: from the local registry, tsc, the quick-start runs", async () => {
    const fromRegistry = npmInstallArgs((registryBlock ?? []).join('\n'))[0];
    expect(fromRegistry, 'the Install section ends with the registry line').toBeDefined();
    expect(fromRegistry).toEqual(expect.arrayContaining(['@adkit/flow', '@adkit/function-tool', '@adkit/model-openai']));
    expect(importedPackages(quickStart).filter((name) => !fromRegistry!.includes(name)), 'quick-start imports left out of the install line').toEqual([]);

    // The README's app block with the registry line in place of the tarballs.
    const clone = join(work, 'registry', 'adkit');
    mkdirSync(clone, { recursive: true });
    const block = appBlock!.map((line) => (line.includes('packed/') ? registryBlock![0]! : line));
    const installed = await runCommand('bash', ['-euc', block.join('\n')], { cwd: clone, env: npmEnv(), timeoutMs: 240_000 });
    const app = join(work, 'registry', 'my-app');
    const footprint = installedFootprint(app);
    log(`newcomer from the registry: \`${registryBlock![0]}\` and the rest took ${installed.ms} ms: ${footprint.packages} packages, ${megabytes(footprint.bytes)} in node_modules`);
    writeFileSync(join(app, 'tsconfig.json'), tsconfig!);
    writeFileSync(join(app, 'main.ts'), quickStart);
    await runCommand('bash', ['-euc', runBlock![0]!], { cwd: app, env: npmEnv() });
    await expectQuickStartRuns(app);
  });

  it('the quick start and every example by the command the README gives, in the repository: npm run demo starts quietly; each example exits 0 with nothing on stderr; without its key or database, one line and exit 1', { timeout: 900_000 }, async () => {
    await packedInRepository;
    // The commands as the README's Examples section gives them; an example marked *key* runs offline.
    const examplesSection = markdownSection(readme, 'Examples') ?? '';
    expect(examplesSection).toContain('npm run example -- quickstart');
    expect(examplesSection).toContain('npm run example -- model-openai --offline');
    const rows = examplesSection.split('\n').filter((line) => line.startsWith('| ['));
    const examples = rows.flatMap((row) => {
      const [names, shows] = row.split(' | ');
      return [...names!.matchAll(/\]\(examples\/([^)]+)\)/g)].map((match) => ({ name: match[1]!, key: shows!.startsWith('*key*') }));
    });
    expect(examples.length).toBeGreaterThan(20);
    const noKeys = { OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined, GOOGLE_API_KEY: undefined, DATABASE_URL: undefined };

    const demo = await documented(['run', 'demo'], noKeys);
    expect(demo.exitCode, demo.output).toBe(0);
    expect(demo.stdout.split('\n').slice(0, 4), 'npm run demo: the transcript comes right after npm\'s own lines').toEqual(['', '> demo', '> node scripts/start.mjs demo', '']);
    expect(demo.output).not.toMatch(/turbo|Tasks:|telemetry|Packages in scope|Progress: resolved/i);
    log('npm run demo: exit 0, quiet start');

    const failures: string[] = [];
    for (const { name, key } of examples) {
      const args = ['run', 'example', '--', name, ...(key ? ['--offline'] : [])];
      if (name === 'dev-ui') {
        failures.push(...(await devUiServes(args)));
        continue;
      }
      const env = name === 'postgres-sessions' ? { ...noKeys, DATABASE_URL: process.env.ADKIT_TEST_PG_URL } : noKeys;
      if (name === 'postgres-sessions' && !env.DATABASE_URL) {
        log('postgres-sessions: no ADKIT_TEST_PG_URL (source .ci/postgres), only the run without DATABASE_URL is checked');
      } else {
        // postgres-sessions must run twice on one database.
        for (let round = 0; round < (name === 'postgres-sessions' ? 2 : 1); round++) {
          const run = await documented(args, env);
          // Our own "(offline: …)" note and a library's warnings (oidc-provider's about its dev
          // setup) are not failures; anything else on stderr is an error printed next to success.
          const stderr = run.stderr.split('\n').filter((line) => line.trim() && !/^\(offline: replaying /.test(line) && !/^\S+ WARNING: /.test(line));
          const problem =
            run.exitCode !== 0 ? `exited with ${run.exitCode}` :
            stderr.length > 0 ? 'printed on stderr' :
            // A value that is missing (`assistant undefined`), a thrown error or its stack trace;
            // not a tool's `{"error": …}` answer, which examples show on purpose.
            /(^|\s)undefined$|^\w*Error\b|^\s+at \S.*:\d+:\d+\)?$/m.test(run.stdout) ? 'printed an error or "undefined" as if it succeeded' :
            run.stdout.split('\n').length < 5 ? 'printed nothing' : undefined;
          if (problem) failures.push(`npm ${args.join(' ')} ${problem}:\n${run.output}`);
          else log(`npm ${args.join(' ')}: exit 0, ${run.stdout.trim().split('\n').length} lines`);
        }
      }
      if (key || name === 'postgres-sessions') {
        // Without its key (or DATABASE_URL): one line that names the variable, exit 1.
        const run = await documented(['run', 'example', '--', name], noKeys);
        const lines = run.stderr.trim().split('\n');
        // mixed-models needs both keys; it names the first one it misses.
        const variable = name === 'postgres-sessions' ? 'DATABASE_URL' : name === 'model-openai' ? 'OPENAI_API_KEY' : name === 'mixed-models' ? '_API_KEY' : 'GEMINI_API_KEY';
        if (run.exitCode !== 1 || lines.length !== 1 || !lines[0]!.includes(variable))
          failures.push(`npm run example -- ${name} without ${variable}: expected one line naming it and exit 1, got exit ${run.exitCode}:\n${run.output}`);
      }
    }
    expect(failures).toEqual([]);
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
    ], (server) => ({ GEMINI_API_KEY: 'AIza-replay-test', GOOGLE_API_KEY: undefined, GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl }), 'out/main.js');
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

/** What a documented npm command printed in the repository, and its exit code (it may fail). */
async function documented(args: string[], env: Record<string, string | undefined>) {
  const result = await runCommand('npm', args, { cwd: root, env: { ...workspaceEnv, ...env, CI: undefined }, timeoutMs: 180_000 }).then(
    (output) => ({ ...output, exitCode: 0 as number | null }),
    (error: unknown) => {
      const failed = error as { exitCode: number | null; stdout?: string; stderr?: string; message: string };
      return { stdout: failed.stdout ?? '', stderr: failed.stderr ?? failed.message, exitCode: failed.exitCode, ms: 0 };
    },
  );
  return { ...result, output: `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-40).join('\n') };
}

/**
 * `npm run example -- dev-ui`: the page answers on the URL it prints, and Ctrl+C (SIGINT to the
 * process group, as a terminal sends it) ends it. Returns the problems found.
 */
async function devUiServes(args: string[]): Promise<string[]> {
  const child = spawn('npm', args, { cwd: root, env: { ...process.env, ...workspaceEnv, PORT: '0' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL after 120 s:\n${output}`)), 120_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /adkit dev UI on (http:\/\/\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('exit', (code) => reject(new Error(`exited with ${code} before serving:\n${output}`)));
    });
    const page = await fetch(url);
    process.kill(-child.pid!, 'SIGINT');
    const ended = await Promise.race([closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000))]);
    const problems: string[] = [];
    if (page.status !== 200) problems.push(`npm ${args.join(' ')}: ${url} answered ${page.status}`);
    if (!ended) problems.push(`npm ${args.join(' ')}: still running 15 s after Ctrl+C`);
    if (problems.length === 0) log(`npm ${args.join(' ')}: served ${url}, ended on Ctrl+C`);
    return problems;
  } catch (error) {
    return [`npm ${args.join(' ')}: ${(error as Error).message}`];
  } finally {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

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
 * Runs the compiled quick-start (`dist/main.js`, as the README's `node dist/main.js`) against the
 * replay server: the recorded Chat Completions answer openai-chat--tool-call.1.json with its tool
 * call renamed to the quick-start's tool, then the same recording as a text answer. It must print
 * what the README shows, nothing on stderr, and exit 0.
 */
async function expectQuickStartRuns(app: string): Promise<void> {
  const recorded = fixtureJson('openai-chat--tool-call.1.json') as { choices: [{ finish_reason: string; message: Record<string, unknown> }] };
  const call = structuredClone(recorded);
  const toolCall = (call.choices[0].message.tool_calls as [{ id: string; function: Record<string, string> }])[0];
  toolCall.function = { name: 'get_weather', arguments: '{"city":"Lisbon"}' };
  const answer = structuredClone(recorded);
  answer.choices[0].finish_reason = 'stop';
  answer.choices[0].message = { role: 'assistant', content: 'It is 21 °C in Lisbon.', refusal: null, annotations: [] };
  const { lines, stderr, requests } = await runAgainstReplay(app, [
    { endpoint: '/chat/completions', json: call },
    { endpoint: '/chat/completions', json: answer },
  ], (server) => ({ OPENAI_API_KEY: 'sk-replay-test', OPENAI_BASE_URL: server.openaiBaseURL }));
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const shown = codeBlocks(markdownSection(readme, 'Packages') ?? '', 'text')[0]?.trimEnd().split('\n');
  expect(lines, "the README's output block after the example").toEqual(shown);
  expect(lines).toEqual([
    '  [call get_weather({"city":"Lisbon"})]',
    '  [response get_weather: {"city":"Lisbon","celsius":21}]',
    'answer: It is 21 °C in Lisbon.',
  ]);
  expect(stderr).toBe('');
  expect(requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
  expect(requests[0]!.body).toMatchObject({ model: 'gpt-4.1-mini', messages: [{ role: 'system' }, { role: 'user', content: 'Weather in Lisbon?' }] });
  expect(requests[1]!.body).toMatchObject({
    messages: [{}, {}, { role: 'assistant' }, { role: 'tool', tool_call_id: toolCall.id, content: '{"city":"Lisbon","celsius":21}' }],
  });
}

/** With the model server down, the quick-start prints the error (not `assistant undefined`) and exits 1 (#31). */
async function expectQuickStartFailsCleanly(app: string): Promise<void> {
  const port = await closedPort();
  const run = await runCommand(process.execPath, ['dist/main.js'], {
    cwd: app,
    timeoutMs: 60_000,
    env: { OPENAI_API_KEY: 'sk-replay-test', OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
  }).then(
    () => undefined,
    (error: unknown) => error as { exitCode: number | null; stdout: string; stderr: string },
  );
  expect(run, 'the quick-start exits non-zero when the server is down').toBeDefined();
  expect(run!.exitCode).toBe(1);
  expect(run!.stdout).toBe('');
  // e.g. CONNECTION_ERROR: Could not reach the OpenAI API at http://127.0.0.1:…/v1 …
  expect(run!.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^[A-Z_]+: .*127\\.0\\.0\\.1:${port}`))]);
}

/** A port on 127.0.0.1 that nothing listens on: bound, then closed. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/**
 * Runs an app's compiled entry (`dist/main.js` by default) as `node` would, with the SDK pointed
 * at a replay server serving `script` (`env` gives the variables); the server must have served
 * every step and seen nothing else. Resolves to the lines the app printed, its stderr and the
 * requests the server received.
 */
async function runAgainstReplay(
  app: string,
  script: ReplayStep[],
  env: (server: ReplayServer) => Record<string, string | undefined>,
  entry = 'dist/main.js',
): Promise<{ lines: string[]; stderr: string; requests: RecordedRequest[] }> {
  const server = await startReplayServer({ script });
  try {
    const run = await runCommand(process.execPath, [entry], { cwd: app, timeoutMs: 60_000, env: env(server) });
    server.assertDone();
    return { lines: run.stdout.trimEnd().split('\n'), stderr: run.stderr, requests: server.requests };
  } finally {
    await server.close();
  }
}

// semver's own rule (the release tools install semver through Verdaccio): exits 1 when
// process.argv[1] does not satisfy process.argv[2].
const satisfiesScript = "process.exitCode = require('semver').satisfies(process.argv[1], process.argv[2]) ? 0 : 1";
