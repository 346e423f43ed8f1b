// The workspace readers of the release test (#16): which packages get published, what their
// package.json must say, how the throwaway copy is made, how an install is measured. Bad input
// tried: private packages, a folder without package.json, a manifest missing every field, a
// `__proto__` key, a file deleted but not committed, ignored files, a symbolic link to a big file.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { installedFootprint, manifestProblems, publishablePackages, throwawayCopy } from '../src/index.js';

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'adkit-release-unit-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function write(file: string, content: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, content);
}

const good = {
  name: '@adkit/good',
  version: '1.0.0',
  license: 'Apache-2.0',
  repository: { type: 'git', url: 'git+https://example.invalid/adkit.git', directory: 'packages/good' },
  engines: { node: '>=20.19' },
  type: 'module',
  files: ['dist', '!dist/.tsbuildinfo', 'README.md', 'CHANGELOG.md'],
  publishConfig: { access: 'public' },
};

it('publishablePackages: every non-private packages/*, sorted by name; private ones and folders without package.json are left out', () => {
  const root = tempDir();
  write(join(root, 'packages', 'zeta', 'package.json'), JSON.stringify({ name: '@adkit/a-zeta', version: '1.0.0' }));
  write(join(root, 'packages', 'alpha', 'package.json'), JSON.stringify({ name: '@adkit/b-alpha', version: '2.0.0' }));
  write(join(root, 'packages', 'secret', 'package.json'), JSON.stringify({ name: '@adkit/secret', version: '1.0.0', private: true }));
  mkdirSync(join(root, 'packages', 'empty'));
  expect(publishablePackages(root).map((pkg) => [pkg.name, pkg.version, pkg.folder])).toEqual([
    ['@adkit/a-zeta', '1.0.0', 'zeta'],
    ['@adkit/b-alpha', '2.0.0', 'alpha'],
  ]);
});

it('manifestProblems: nothing for a complete package; one sentence naming the fix for each gap', () => {
  const root = tempDir();
  write(join(root, 'packages', 'good', 'package.json'), JSON.stringify(good));
  write(join(root, 'packages', 'good', 'README.md'), '# good\n');
  write(join(root, 'packages', 'good', 'CHANGELOG.md'), '# changes\n');
  write(join(root, 'packages', 'bad', 'package.json'), '{"name": "@adkit/bad", "version": "1.0.0", "__proto__": {"license": "MIT"}, "files": ["dist"], "repository": {"type": "git", "url": "x"}}');
  const [bad, goodPkg] = publishablePackages(root);
  expect(manifestProblems(goodPkg!, { changelog: true })).toEqual([]);
  expect(manifestProblems(bad!, { changelog: true })).toEqual([
    '@adkit/bad (packages/bad/package.json): no "license"; add "license": "Apache-2.0".',
    '@adkit/bad (packages/bad/package.json): "repository.directory" is undefined; it must be "packages/bad".',
    '@adkit/bad (packages/bad/package.json): no "engines.node"; add "engines": {"node": ">=20.19"}.',
    '@adkit/bad (packages/bad/package.json): "type" must be "module" (the packages are ESM).',
    '@adkit/bad (packages/bad/package.json): "files" lacks "README.md"; it must list "dist", "README.md", "CHANGELOG.md".',
    '@adkit/bad (packages/bad/package.json): "files" lacks "CHANGELOG.md"; it must list "dist", "README.md", "CHANGELOG.md".',
    '@adkit/bad (packages/bad/package.json): a scoped package needs "publishConfig": {"access": "public"}, or the first publish is refused.',
    '@adkit/bad (packages/bad/package.json): no README.md next to package.json.',
    '@adkit/bad (packages/bad/package.json): no CHANGELOG.md after `changeset version`; add a changeset that names the package.',
  ]);
});

it('the real packages/* meet every rule but the changelog, which only `changeset version` writes', () => {
  const root = new URL('../../../', import.meta.url).pathname;
  const problems = publishablePackages(root).flatMap((pkg) => manifestProblems(pkg).filter((p) => !p.includes('no README.md')));
  expect(problems).toEqual([]);
});

it('throwawayCopy: tracked and untracked files as they are now, plus packages/*/dist; not ignored or deleted files', () => {
  const root = tempDir();
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd: root });
  git('init', '-q');
  write(join(root, '.gitignore'), 'dist/\n*.log\n');
  write(join(root, 'packages', 'a', 'src', 'index.ts'), 'committed');
  write(join(root, 'gone.txt'), 'deleted later');
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  rmSync(join(root, 'gone.txt'));
  write(join(root, 'packages', 'a', 'src', 'index.ts'), 'edited, not committed');
  write(join(root, 'packages', 'a', 'new.ts'), 'untracked');
  write(join(root, 'packages', 'a', 'dist', 'index.js'), 'built');
  write(join(root, 'debug.log'), 'ignored');
  const dest = join(tempDir(), 'copy');
  expect(throwawayCopy(root, dest)).toBe(3); // .gitignore, src/index.ts, new.ts
  expect(readFileSync(join(dest, 'packages', 'a', 'src', 'index.ts'), 'utf8')).toBe('edited, not committed');
  expect(readFileSync(join(dest, 'packages', 'a', 'new.ts'), 'utf8')).toBe('untracked');
  expect(readFileSync(join(dest, 'packages', 'a', 'dist', 'index.js'), 'utf8')).toBe('built');
  expect(existsSync(join(dest, 'gone.txt'))).toBe(false);
  expect(existsSync(join(dest, 'debug.log'))).toBe(false);
});

it('installedFootprint: packages from npm’s hidden lockfile, nested copies included; bytes without following links', () => {
  const app = tempDir();
  const lock = { packages: { '': {}, 'node_modules/a': {}, 'node_modules/b': {}, 'node_modules/b/node_modules/a': {} } };
  write(join(app, 'node_modules', '.package-lock.json'), JSON.stringify(lock));
  write(join(app, 'node_modules', 'a', 'index.js'), 'x'.repeat(1000));
  const big = join(tempDir(), 'big.bin');
  writeFileSync(big, Buffer.alloc(1_000_000));
  symlinkSync(big, join(app, 'node_modules', 'link.bin'));
  const footprint = installedFootprint(app);
  expect(footprint.packages).toBe(3);
  expect(footprint.bytes).toBeGreaterThanOrEqual(1000 + JSON.stringify(lock).length);
  expect(footprint.bytes).toBeLessThan(10_000);
});
